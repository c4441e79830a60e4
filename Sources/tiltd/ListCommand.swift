import ArgumentParser

// Skeleton: replaced by the issue that implements `tiltd list`.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("tiltd list is not built yet")
    }
}
