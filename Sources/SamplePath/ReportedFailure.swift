/// A failure that has already been logged: the command only has to exit
/// with status 1, printing nothing more.
public struct ReportedFailure: Error, CustomStringConvertible, Sendable {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
