import Foundation

/// Runs the programs the tests need (pulseaudio, pactl, paplay, sox, tiltd)
/// with a time limit, so no test can hang on one.
///
/// Spawned with posix_spawn and reaped with waitpid, not Foundation's
/// `Process`: pulseaudio closes every inherited descriptor at start-up, which
/// Foundation on Linux takes as its exit and then blocks its process-manager
/// thread in wait4 on it, so no other child is reaped until it ends.
public enum ExternalProgram {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
    }

    public struct Missing: Error, CustomStringConvertible {
        public var name: String
        public var description: String {
            "\(name) is not installed; run scripts/setup.sh test (packages pulseaudio, pulseaudio-utils, sox)"
        }
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var name: String
        public var code: Int32
        public var description: String { "cannot start \(name): \(String(cString: strerror(code)))" }
    }

    /// A started program.
    public final class Child {
        public let pid: pid_t
        public private(set) var status: Int32?

        public init(pid: pid_t) { self.pid = pid }

        /// Reaps the child if it has exited; true while it runs.
        public var isRunning: Bool {
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            // WIFEXITED/WEXITSTATUS are macros: decode the wait status by hand.
            status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            return false
        }

        public func signal(_ number: Int32) { if isRunning { kill(pid, number) } }
    }

    /// The absolute path of `name` on PATH (or the usual system folders).
    public static func locate(_ name: String) throws -> String {
        if name.hasPrefix("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(name: name)
    }

    /// Starts `name arguments…` with `environment` added; stdin is
    /// /dev/null, stdout and stderr go to the given files (or /dev/null).
    public static func start(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                      stdoutPath: String? = nil, stderrPath: String? = nil) throws -> Child {
        TestTier.requireSystem(starting: name)
        let executable = try locate(name)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else: SwiftNIO accepts connections without close-on-exec,
        // and a child holding a copy of a test server's socket keeps that
        // connection open after the server closes it (a slowloris test saw
        // 45 closed connections still established while a player ran).
        try closeInheritedDescriptors(&actions)
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // libdispatch's worker threads block signals, and a spawned child
        // inherits the mask: unblock everything and restore default actions,
        // or timeout(1) would never see the SIGTERM meant to stop it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else { throw SpawnFailure(name: name, code: code) }
        return Child(pid: pid)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later;
    /// the Glibc module does not declare it).
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Adds to `actions` the closing of every descriptor above stderr in the
    /// child (for every posix_spawn of the tests: see `start`).
    public static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        guard let addCloseFrom else { throw SpawnFailure(name: "posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)", code: ENOSYS) }
        let code = addCloseFrom(&actions, 3)
        guard code == 0 else { throw SpawnFailure(name: "posix_spawn_file_actions_addclosefrom_np", code: code) }
    }

    /// Runs `name arguments…` to the end, or kills it after `timeoutSeconds`
    /// (generous: CI machines are loaded).
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                    timeoutSeconds: Double = 30) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("levels-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path, err = folder.appendingPathComponent("err").path
        let child = try start(name, arguments, environment: environment, stdoutPath: out, stderrPath: err)
        let timedOut = !waitForExit(child, timeoutSeconds: timeoutSeconds)
        return Result(status: child.status ?? -1,
                      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
                      timedOut: timedOut)
    }

    /// Waits for `child` to exit; after `timeoutSeconds`, SIGTERM, then
    /// SIGKILL a second later. Returns false when it had to be stopped.
    @discardableResult
    public static func waitForExit(_ child: Child, timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while child.isRunning && Date() < deadline { usleep(5_000) }
        guard child.isRunning else { return true }
        child.signal(SIGTERM)
        let killDeadline = Date().addingTimeInterval(1)
        while child.isRunning && Date() < killDeadline { usleep(5_000) }
        child.signal(SIGKILL)
        while child.isRunning { usleep(5_000) }
        return false
    }
}

/// A socket the test process holds without close-on-exec (as SwiftNIO
/// accepts connections), at a number ≥ 300 no child opens for itself: a
/// program the tests start must not have it (`ExternalProgram.start`).
public final class InheritableDescriptor {
    public let number: Int32

    public init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw ExternalProgram.SpawnFailure(name: "socket", code: errno) }
        defer { close(socketDescriptor) }
        number = fcntl(socketDescriptor, F_DUPFD, 300)
        guard number >= 300 else { throw ExternalProgram.SpawnFailure(name: "fcntl F_DUPFD 300", code: errno) }
    }

    /// Whether it would pass to a child: no close-on-exec flag.
    public var isInheritable: Bool { fcntl(number, F_GETFD) & FD_CLOEXEC == 0 }

    /// Whether process `pid` holds a descriptor of that number.
    public func isOpen(in pid: pid_t) -> Bool { access("/proc/\(pid)/fd/\(number)", F_OK) == 0 }

    deinit { close(number) }
}
