/// A PNG could not be written or read.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    /// "write", "encode" or "read".
    public let operation: String
    /// The file path, or "memory".
    public let target: String
    /// libpng's message.
    public let reason: String

    public var description: String {
        switch operation {
        case "write":
            return "cannot write PNG \(target): \(reason); check that the directory exists and is writable"
        case "read":
            return "cannot read PNG \(target): \(reason); check that the file exists and is a PNG"
        default:
            return "cannot \(operation) PNG in \(target): \(reason)"
        }
    }
}
