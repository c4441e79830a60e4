import ArgumentParser

// Skeleton: replaced by the issue that implements `tiltd run`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("tiltd run is not built yet")
    }
}
