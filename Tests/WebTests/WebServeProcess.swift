import Foundation
import TiltdTestSupport
import Glibc

/// The built `tiltd serve` in a child process, optionally under a lowered
/// open-file limit (`bash -c 'ulimit -n N; exec tiltd serve …'`) or under
/// `umockdev-run` with device files; its standard error goes to a file the
/// test reads.
final class WebServeProcess {
    let process = Process()
    let stderrPath: String
    private(set) var port: UInt16 = 0

    /// The repository's root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tiltd` binary built beside the test bundle.
    static var binary: String {
        let beside = Bundle.main.bundleURL.appendingPathComponent("tiltd").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/tiltd").path
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// True when tiltd runs under umockdev-run (a child of `process`).
    private let underUmockdev: Bool

    /// Starts `tiltd serve --port 0 arguments…` (`binary`, the built one unless given; with `ulimit -n openFiles`,
    /// or under umockdev-run with `devices`) and waits up to 60 s for its
    /// "serving http://127.0.0.1:PORT/" line.
    init(binary: String = WebServeProcess.binary, openFiles: Int? = nil, devices: [URL] = [],
         environment: [String: String] = [:], _ arguments: [String]) throws {
        let directory = try TestPaths.temporaryDirectory()
        stderrPath = directory + "/stderr"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        underUmockdev = !devices.isEmpty
        var command = [binary, "serve", "--port", "0"] + arguments
        if underUmockdev {
            command = ["/usr/bin/umockdev-run"] + devices.flatMap { ["--device", $0.path] } + ["--"] + command
        }
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", (openFiles.map { "ulimit -n \($0) && " } ?? "") + "exec \"$0\" \"$@\""] + command
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        try process.run()
        var found: UInt16?
        _ = TestPaths.eventually(60) {
            guard let range = self.stderr.range(of: "serving http://127.0.0.1:") else { return !self.process.isRunning }
            found = UInt16(self.stderr[range.upperBound...].prefix { $0.isNumber })
            return found != nil
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw Failure(description: "tiltd serve did not start: \(stderr)")
        }
        port = found
    }

    deinit {
        if process.isRunning {
            kill(tiltdPID, SIGKILL)
            kill(process.processIdentifier, SIGKILL)
        }
    }

    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// tiltd's own pid: `process` itself, or umockdev-run's child
    /// (umockdev-run does not pass signals on).
    var tiltdPID: pid_t {
        let parent = process.processIdentifier
        guard underUmockdev else { return parent }
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) } ?? parent
    }

    /// Descriptors the server holds now (entries of /proc/PID/fd).
    var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(tiltdPID)/fd").count) ?? 0
    }

    /// Sends `signal` to tiltd and waits up to 10 s for the exit; true when it
    /// exited. Past the deadline tiltd is killed (SIGKILL) and reaped before
    /// this returns false, so `process.terminationStatus` is always safe to
    /// read afterwards (Foundation traps on it while the process runs).
    func stop(with signal: Int32 = SIGTERM) -> Bool {
        guard process.isRunning else { return true }
        let pid = tiltdPID
        kill(pid, signal)
        let exited = TestPaths.eventually(10) { !self.process.isRunning }
        if !exited {
            kill(pid, SIGKILL)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return exited
    }
}
