import Motion
import Web
import Wording

/// Why `tiltd serve` stopped, in one line naming the option to change.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public var message: SettingMessage
    public var description: String { message.description }
    public init(_ message: SettingMessage) { self.message = message }
}
