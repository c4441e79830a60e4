import Foundation
import Glibc

/// A `tiltd` started in the background for the socket and web tests, which
/// talk to it while it runs and then stop it with a signal.
public final class SocketTiltdProcess: @unchecked Sendable {
    // Safe: `process` is only driven from the test's thread; output buffers
    // are collected by PipeDrain threads.
    public let process = Process()
    private let outPipe = Pipe(), errPipe = Pipe()
    private let out: PipeDrain
    private let err: PipeDrain

    /// Starts `tiltd arguments…`, under `umockdev-run` when `devices` is not
    /// empty (see TiltdProcess for the same convention).
    ///
    /// - Parameter launcher: a program that execs its arguments (such as
    ///   `/usr/bin/nohup`), so that tiltd keeps its pid.
    /// - Parameter standardOutput: where tiltd's standard output goes
    ///   instead of a pipe this object reads (`stdout` is then empty).
    public init(launcher: String? = nil, _ arguments: [String], devices: [URL] = [],
                scripts: [(node: String, script: URL)] = [], environment: [String: String] = [:],
                standardOutput: FileHandle? = nil) throws {
        TestTier.requireSystem(starting: "tiltd")
        if let launcher {
            process.executableURL = URL(fileURLWithPath: launcher)
            process.arguments = [TiltdProcess.binary.path] + arguments
        } else if devices.isEmpty && scripts.isEmpty {
            process.executableURL = TiltdProcess.binary
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/umockdev-run")
            var argv: [String] = []
            for device in devices { argv += ["--device", device.path] }
            for (node, script) in scripts { argv += ["-s", "\(node)=\(script.path)"] }
            process.arguments = argv + ["--", TiltdProcess.binary.path] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        process.standardOutput = standardOutput ?? outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        if standardOutput != nil { try? outPipe.fileHandleForWriting.close() }
        out = PipeDrain(outPipe.fileHandleForReading)
        err = PipeDrain(errPipe.fileHandleForReading)
        try process.run()
    }

    deinit {
        if let child = tiltdChild { kill(child, SIGKILL) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// True when tiltd runs under umockdev-run (a child of `process`).
    private var underUmockdev: Bool { process.executableURL?.lastPathComponent == "umockdev-run" }

    /// tiltd's own pid: `process` itself, or umockdev-run's child (umockdev-run
    /// does not pass signals on).
    public var tiltdPID: pid_t? {
        guard underUmockdev else { return process.processIdentifier }
        return tiltdChild
    }

    private var tiltdChild: pid_t? {
        guard underUmockdev else { return nil }
        let parent = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// What tiltd wrote so far; once it has ended, all of it.
    public var stdout: String { out.text(of: process) }
    public var stderr: String { err.text(of: process) }

    /// Polls `condition` every 20 ms for up to `seconds` (generous: the
    /// deadline bounds a failure, never a success, and loaded machines are
    /// slow) while the process runs.
    public func waitFor(_ seconds: TimeInterval = 120, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            if !process.isRunning { return condition() }
            usleep(20_000)
        }
        return condition()
    }

    /// Sends `signal` and waits up to `seconds` for the process to end.
    ///
    /// - Returns: true when it ended in time.
    @discardableResult
    public func stop(with signal: Int32 = SIGTERM, within seconds: TimeInterval = 30) -> Bool {
        if process.isRunning, let pid = tiltdPID { kill(pid, signal) }
        return waitUntilExit(within: seconds)
    }

    /// Waits up to `seconds` for the process to end on its own.
    @discardableResult
    public func waitUntilExit(within seconds: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let inTime = !process.isRunning
        if !inTime {
            if let child = tiltdChild { kill(child, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        // Under umockdev a leftover grandchild could hold the pipes open:
        // then take what is there after a few seconds rather than waiting on.
        for drain in [out, err] { drain.waitForEnd(within: !inTime ? 1 : underUmockdev ? 5 : 60) }
        return inTime
    }
}
