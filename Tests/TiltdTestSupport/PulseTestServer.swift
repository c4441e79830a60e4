import Foundation

/// A real PulseAudio server for one test, on a private 0700 runtime folder
/// with one null sink named `test` (SPEC §13), killed by `stop()`.
///
/// The native socket allows anonymous clients: the folder is private, and
/// it spares the tests the user's cookie in ~/.config/pulse.
public final class PulseTestServer {
    /// The private runtime folder (also the server's HOME).
    public let folder: URL
    private let process: ExternalProgram.Child
    private var isStopped = false

    /// The libpulse server string of this server.
    public var server: String { "unix:\(folder.path)/pulse/native" }

    /// Environment that points pactl, paplay and tiltd at this server.
    public var environment: [String: String] { ["PULSE_SERVER": server] }

    /// Starts the server and waits until `pactl info` answers (retrying
    /// until a 30 s deadline, never a fixed sleep).
    ///
    /// - Parameter folder: the runtime folder; a new one when nil (give a
    ///   stopped server's folder to restart a server at the same socket).
    public init(folder: URL? = nil) throws {
        self.folder = folder ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("levels-pulse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let log = self.folder.appendingPathComponent("pulseaudio.log")
        // Under timeout(1), so a server outlives a crashed test run by 10
        // minutes at most; timeout passes our SIGTERM on to it.
        process = try ExternalProgram.start(
            "timeout",
            ["600", try ExternalProgram.locate("pulseaudio"), "--daemonize=no", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
             "--load=module-null-sink sink_name=test",
             "--load=module-native-protocol-unix auth-anonymous=1"],
            environment: ["XDG_RUNTIME_DIR": self.folder.path, "HOME": self.folder.path],
            stderrPath: log.path)
        let deadline = Date().addingTimeInterval(30)
        while true {
            if try pactl(["info"]).status == 0 { return }
            guard process.isRunning, Date() < deadline else {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                stop()
                throw StartFailure(log: output)
            }
            usleep(50_000)
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public var log: String
        public var description: String { "the test PulseAudio server did not come up: \(log)" }
    }

    deinit { stop() }

    /// `pactl arguments…` against this server.
    public func pactl(_ arguments: [String]) throws -> ExternalProgram.Result {
        try ExternalProgram.run("pactl", arguments, environment: environment, timeoutSeconds: 15)
    }

    /// Starts `paplay -d test file` against this server.
    public func play(_ file: URL) throws -> ExternalProgram.Child {
        try ExternalProgram.start("paplay", ["-d", "test", file.path], environment: environment)
    }

    /// Kills the server and, unless `keepFolder`, removes its folder; later
    /// calls do nothing.
    public func stop(keepFolder: Bool = false) {
        guard !isStopped else { return }
        isStopped = true
        if process.isRunning { ExternalProgram.waitForExit(process, timeoutSeconds: 0) }
        if !keepFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs `body` with a fresh server, always stopping it afterwards.
    public static func with<T>(_ body: (PulseTestServer) async throws -> T) async throws -> T {
        let server = try PulseTestServer()
        defer { server.stop() }
        return try await body(server)
    }
}
