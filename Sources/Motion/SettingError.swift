/// A setting that cannot work, found before anything opens: one line
/// naming the option and what to give instead (the command shows it as a
/// usage error).
public struct SettingError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
