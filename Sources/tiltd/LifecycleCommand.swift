import ArgumentParser
import Daemon
import SamplePath
import ServiceLifecycle

extension Lifecycle {
    /// Runs a command's services (nil entries skipped, in the order given)
    /// under the lifecycle; a failure the services already logged becomes
    /// exit status 1 with nothing more printed.
    func runCommand(_ services: [(any Service)?]) async throws {
        do {
            try await run(services.compactMap { $0 })
        } catch is ReportedFailure {
            throw ExitCode.failure
        }
    }
}
