import ArgumentParser

// Skeleton: replaced by the issue that implements `tiltd render`.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("tiltd render is not built yet")
    }
}
