/// Why `tiltd serve` stopped, in one line naming the option to change.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
