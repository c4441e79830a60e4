import Foundation
import Glibc
import TiltdTestSupport

/// A private D-Bus daemon for one test (`dbus-daemon --session --fork
/// --print-address=1 --print-pid=2`), killed when the test lets it go.
final class PrivateBus {
    let address: String
    /// The daemon's process id.
    let pid: pid_t

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    /// - Parameter configuration: `["--session"]`, or `["--config-file=…"]`.
    init(configuration: [String] = ["--session"]) throws {
        // Files, not pipes: the forked daemon keeps its stdout and stderr
        // open, so a pipe would never reach its end. posix_spawn and waitpid
        // rather than Foundation's Process, which here never saw the
        // --fork parent exit.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("address").path
        let errPath = directory.appendingPathComponent("pid").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else: a daemon that outlives its test must not hold the
        // test process's other descriptors (a server's accepted socket, or
        // the end of a socket pair by which Foundation sees a child exit:
        // a busctl once still counted as running 30 s after printing its answer).
        try ExternalProgram.closeInheritedDescriptors(&actions)
        let argv = ["/usr/bin/dbus-daemon"] + configuration + ["--fork", "--nopidfile", "--print-address=1", "--print-pid=2"]
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw Failure(text: "cannot start dbus-daemon: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}  // --fork: returns once the daemon listens
        let address = try String(contentsOfFile: outPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // The pid is the last line; warnings (an unknown user in a policy) come before it.
        let pidText = try String(contentsOfFile: errPath, encoding: .utf8)
            .split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, !address.isEmpty, let pid = pid_t(pidText) else {
            throw Failure(text: "dbus-daemon failed (wait status \(status)): \(pidText)")
        }
        self.address = address
        self.pid = pid
    }

    deinit { kill(pid, SIGKILL) }  // a private bus has nothing to save

    /// Environment for a child that should use this bus as its session bus.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    struct Failure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
