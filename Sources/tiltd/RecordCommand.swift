import ArgumentParser

// Skeleton: replaced by the issue that implements `tiltd record`.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("tiltd record is not built yet")
    }
}
