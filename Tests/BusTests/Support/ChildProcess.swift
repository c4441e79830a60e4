import Foundation
import Glibc
import TiltdTestSupport

/// A program the D-Bus tests start and talk to while it runs: its output is
/// collected as it arrives, and waits poll it against a deadline (never a
/// fixed sleep).
final class ChildProcess: @unchecked Sendable {
    // Safe: `process` and `input` are driven from the test's thread only;
    // the output is collected by the drains' threads.
    private let process = Process()
    private let input = Pipe()
    private let out: PipeDrain
    private let err: PipeDrain

    /// The repository's root, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tiltd` built beside the test bundle.
    static var tiltd: String {
        let beside = Bundle.main.bundleURL.appendingPathComponent("tiltd").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/tiltd").path
    }

    static func fixture(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    /// Starts `executable arguments…` with `environment` added to ours.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = input
        out = PipeDrain(outPipe.fileHandleForReading)
        err = PipeDrain(errPipe.fileHandleForReading)
        try process.run()
    }

    /// `tiltd arguments…` under `umockdev-run` with a buffered device and script.
    static func tiltdUnderUmockdev(device: String, script: String, _ arguments: [String],
                                   environment: [String: String]) throws -> ChildProcess {
        try ChildProcess("/usr/bin/umockdev-run",
                         ["--device", fixture(device), "-s", "/dev/iio:device0=\(fixture(script))", "--", tiltd]
                             + arguments, environment: environment)
    }

    deinit {
        for pid in [innermostPID, process.processIdentifier] where pid > 0 { kill(pid, SIGKILL) }
    }

    /// What the program wrote so far; once it has ended, all of it (the
    /// drain thread may not have read the last bytes yet when the exit is seen).
    var stdout: String { out.text(of: process) }
    var stderr: String { err.text(of: process) }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var isRunning: Bool { process.isRunning }

    /// The program itself, or the child of `umockdev-run` (which does not
    /// pass signals on).
    var innermostPID: pid_t {
        let parent = process.processIdentifier
        guard process.executableURL?.lastPathComponent == "umockdev-run" else { return parent }
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) } ?? -1
    }

    /// Polls `condition` every 20 ms for up to `seconds`; true once it holds.
    func waitFor(_ seconds: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Sends `signal` to the program and waits for it to end; its exit status,
    /// or nil if it did not end in time.
    func stop(with signal: Int32 = SIGINT, within seconds: TimeInterval = 30) -> Int32? {
        let pid = innermostPID
        if pid > 0 { kill(pid, signal) }
        try? input.fileHandleForWriting.close()
        guard waitFor(seconds, { !process.isRunning }) else { return nil }
        // The last lines may still be in the pipes: wait for their ends.
        for drain in [out, err] { drain.waitForEnd(within: 5) }
        return process.terminationStatus
    }

    /// Closes the program's standard input and sends SIGUSR1: dbus-client.py
    /// ends on either. End of file alone can fail to come, because Foundation's
    /// `Pipe` is not close-on-exec and a process another test spawns meanwhile
    /// can inherit the write end (seen once in a fresh CI run).
    func closeInput() {
        try? input.fileHandleForWriting.close()
        let pid = innermostPID
        if pid > 0 { kill(pid, SIGUSR1) }
    }
}
