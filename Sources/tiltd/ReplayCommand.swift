import ArgumentParser

// Skeleton: replaced by the issue that implements `tiltd replay`.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("tiltd replay is not built yet")
    }
}
