import ArgumentParser

// Skeleton: replaced by the issue that implements `tiltd serve`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("tiltd serve is not built yet")
    }
}
