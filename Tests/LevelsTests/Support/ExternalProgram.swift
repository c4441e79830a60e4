import Foundation

/// Runs the programs the tests need (pulseaudio, pactl, paplay, sox, tiltd)
/// with a time limit, so no test can hang on one.
enum ExternalProgram {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
    }

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String {
            "\(name) is not installed; run scripts/setup.sh test (packages pulseaudio, pulseaudio-utils, sox)"
        }
    }

    /// The absolute path of `name` on PATH (or the usual system folders).
    static func locate(_ name: String) throws -> URL {
        if name.hasPrefix("/") { return URL(fileURLWithPath: name) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(name: name)
    }

    /// Starts `name arguments…` with `environment` added; output goes to the
    /// given files (or nowhere).
    static func start(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                      stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try locate(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `name arguments…` to the end, or kills it after `timeoutSeconds`
    /// (generous: CI machines are loaded).
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                    timeoutSeconds: Double = 30) throws -> Result {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("levels-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = try start(name, arguments, environment: environment, stdout: out, stderr: err)
        let timedOut = !waitForExit(process, timeoutSeconds: timeoutSeconds)
        try? out.close()
        try? err.close()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
                      timedOut: timedOut)
    }

    /// Waits for `process` to exit; after `timeoutSeconds`, SIGTERM, then
    /// SIGKILL a second later. Returns false when it had to be killed.
    @discardableResult
    static func waitForExit(_ process: Process, timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard process.isRunning else { return true }
        process.terminate()
        let killDeadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < killDeadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return false
    }
}
