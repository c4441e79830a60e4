import Foundation

/// Runs the built `tiltd` executable the way a user would, for end-to-end tests.
///
/// The binary is the one `swift build` put beside the test bundle; the tests
/// never call into the executable's code directly.
public struct TiltdProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// True when the process was killed because it outlived its time limit.
        public var timedOut: Bool
    }

    public init() {}

    /// The repository's root, found from this file's path (Tests/TiltdTestSupport/…).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Tests/Fixtures`, where umockdev device files and scripts live.
    public static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The `tiltd` binary in the same build folder as the running tests.
    public static var binary: URL {
        // The test bundle runs from .build/<triple>/debug; tiltd is linked there too.
        let bundleDirectory = Bundle.main.bundleURL
        let beside = bundleDirectory.appendingPathComponent("tiltd")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/tiltd")
    }

    /// The `tiltd-run` binary built beside `tiltd`, which `tiltd run` execs.
    public static var runBinary: URL {
        binary.deletingLastPathComponent().appendingPathComponent("tiltd-run")
    }

    /// Runs `tiltd arguments…`, optionally under `umockdev-run` with the given
    /// device files and scripts, and waits at most `timeout` seconds.
    ///
    /// - Parameters:
    ///   - arguments: tiltd's arguments.
    ///   - devices: umockdev device description files (`--device`).
    ///   - scripts: `(node, script)` pairs for `umockdev-run -s node=script`.
    ///   - environment: variables added to this process's environment.
    ///   - stdin: bytes written to the child's standard input, which is then closed.
    ///   - timeout: wall-clock limit in seconds; generous, CI machines are loaded.
    public static func run(
        _ arguments: [String],
        devices: [URL] = [],
        scripts: [(node: String, script: URL)] = [],
        environment: [String: String] = [:],
        stdin: Data? = nil,
        timeout: TimeInterval = 60
    ) throws -> Result {
        var argv: [String] = []
        let executable: URL
        if devices.isEmpty && scripts.isEmpty {
            executable = binary
            argv = arguments
        } else {
            executable = URL(fileURLWithPath: "/usr/bin/umockdev-run")
            for device in devices { argv += ["--device", device.path] }
            for (node, script) in scripts { argv += ["-s", "\(node)=\(script.path)"] }
            argv += ["--", binary.path] + arguments
        }
        return try execute(executable, argv, environment: environment, stdin: stdin, timeout: timeout)
    }

    /// Runs any program with `arguments`, feeding `stdin` (then closing it),
    /// and waits at most `timeout` seconds: then SIGTERM, and SIGKILL a
    /// second later.
    public static func execute(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        stdin: Data? = nil,
        timeout: TimeInterval
    ) throws -> Result {
        TestTier.requireSystem(starting: executable.path)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }

        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let outData = PipeDrain(out.fileHandleForReading), errData = PipeDrain(err.fileHandleForReading)
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()

        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                Thread.sleep(forTimeInterval: 1)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        // After a timeout a grandchild (the program under umockdev-run) may
        // still hold the pipes: keep what arrived instead of waiting for EOF.
        outData.waitForEnd(within: timedOut ? 1 : 60)
        errData.waitForEnd(within: timedOut ? 1 : 60)
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData.data, as: UTF8.self),
            stderr: String(decoding: errData.data, as: UTF8.self),
            timedOut: timedOut)
    }
}

/// Bytes appended from a pipe's reader thread and read on the test's thread.
public final class LockedData: @unchecked Sendable {
    public init() {}
    // Safe: every access to `data` holds `lock`.
    private let lock = NSLock()
    private var data = Data()

    public func append(_ more: Data) {
        lock.lock(); data.append(more); lock.unlock()
    }

    public var value: Data {
        lock.lock(); defer { lock.unlock() }
        return data
    }
}
