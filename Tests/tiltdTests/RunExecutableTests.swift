import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// `tiltd run` as its own executable: `tiltd` execs `tiltd-run`
/// beside it for `run` and the default command, keeping the pid, the
/// output and the exit status; without it, `run` runs in `tiltd` as before.
@Suite(.timeLimit(.minutes(15))) struct RunExecutableTests {
    /// Shared libraries the daemon must not map: Foundation (the whole or
    /// its internationalization) and its ICU, and what only `serve`,
    /// `levels`, `render` and `draw` use. System ICU (`libicuuc`,
    /// `libicudata`) is not among them: libiio's libxml2 links it.
    static let unwantedLibraries = ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU",
                                    "libpulse", "libsndfile", "libpng"]

    /// The base names of the files `pid` maps.
    static func mappedFiles(_ pid: pid_t) throws -> Set<String> {
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        return Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).dropFirst(5).first
                .flatMap { $0.hasPrefix("/") ? String($0.split(separator: "/").last ?? "") : nil }
        })
    }

    /// `tiltd run` and `tiltd` alone (the default command) on a buffered
    /// device: the process (same pid) is the `tiltd-run` image, maps none of
    /// the unwanted libraries, streams states to a socket client, logs as
    /// `tiltd: …` and stops on SIGTERM with status 0.
    @Test(arguments: [["run"], []])
    func runIsTheSmallExecutableAndStillStreams(command: [String]) throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        #expect(FileManager.default.isExecutableFile(atPath: TiltdProcess.runBinary.path),
                "swift build puts tiltd-run beside tiltd")
        let dir = try TestPaths.temporaryDirectory()
        let socket = dir + "/run.sock"
        let tiltd = try SocketTiltdProcess(command + ["--mode", "buffer", "--no-gate", "--listen", "unix:\(socket)"],
                                           devices: [DeviceTestSupport.fixture("buffered.umockdev")],
                                           scripts: [("/dev/iio:device0", DeviceTestSupport.fixture("steady.script"))])
        defer { tiltd.stop(with: SIGKILL) }
        try #require(tiltd.waitFor { tiltd.stderr.contains("serving states on unix:\(socket)") }, "\(tiltd.stderr)")
        let pid = try #require(tiltd.tiltdPID)
        let image = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(URL(fileURLWithPath: image).lastPathComponent == "tiltd-run", "\(image)")
        let mapped = try Self.mappedFiles(pid)
        let unwanted = mapped.filter { name in Self.unwantedLibraries.contains { name.hasPrefix($0) } }
        #expect(unwanted.isEmpty, "tiltd run maps \(unwanted.sorted())")
        let client = try SocketTestClient(path: socket)
        let states = (0..<3).compactMap { _ in client.readLine(timeout: 30) }
        #expect(states.count == 3 && states.allSatisfy { $0.hasPrefix("{\"t\":") }, "\(states) \(tiltd.stderr)")
        #expect(tiltd.stop(with: SIGTERM))
        #expect(tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        #expect(tiltd.stderr.contains("tiltd: reading iio:device0") && tiltd.stderr.contains("tiltd: SIGTERM: stopping"),
                "\(tiltd.stderr)")
    }

    /// Argument lists and whether `tiltd` hands them to `tiltd-run`.
    static let dispatch: [(arguments: [String], execs: Bool)] = [
        (["run", "--bogus"], true), (["--listen", "unix:/tmp/x.sock"], true), ([], true),
        (["run", "--help"], true), (["run", "--version"], true),
        (["--help"], false), (["-h"], false), (["--version"], false), (["help", "run"], false),
        (["--generate-completion-script", "bash"], false), (["run", "--generate-completion-script=bash"], false),
        (["--experimental-dump-help"], false), (["list"], false), (["replay", "-"], false), (["bogus"], false),
    ]

    /// A copy of `tiltd` in a directory of its own, beside a stand-in
    /// `tiltd-run` that prints what it was given: the arguments that select
    /// `run` reach it unchanged, the others stay in `tiltd`.
    @Test func tiltdExecsTheExecutableBesideItOnlyForRun() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = URL(fileURLWithPath: dir + "/tiltd")
        // Both files are written by child processes: a descriptor this process
        // held open for writing would be inherited by children other suites
        // spawn meanwhile, and exec would fail with ETXTBSY.
        let copied = try ExternalProgram.run("cp", [TiltdProcess.binary.path, copy.path])
        #expect(copied.status == 0, "cp: \(copied.stderr)")
        let standIn = try ExternalProgram.run("sh", ["-c", "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\"", "sh",
                                                     "#!/bin/sh\necho \"tiltd-run($#) $*\"\nexit 7\n", dir + "/tiltd-run"])
        #expect(standIn.status == 0, "sh: \(standIn.stderr)")
        for (arguments, execs) in Self.dispatch {
            let result = try TiltdProcess.execute(copy, arguments, stdin: Data(), timeout: 60)
            let handed = "tiltd-run(\(arguments.count)) \(arguments.joined(separator: " "))\n"
            if execs {
                #expect(result.stdout == handed && result.status == 7, "\(arguments): \(result.stdout)")
            } else {
                #expect(!result.stdout.hasPrefix("tiltd-run("), "\(arguments): \(result.stdout)")
            }
        }
    }

    /// Usage errors and help of `run`, as printed before `tiltd-run` existed.
    static let usage: [(arguments: [String], status: Int32, stderr: String?)] = [
        (["run", "--bogus"], 64, """
            tiltd: error: Unknown option '--bogus'. Did you mean '--dbus'?
            Usage: tiltd run <options>
              See 'tiltd run --help' for more information.

            """),
        (["--rate", "bad"], 64, """
            tiltd: error: The value 'bad' is invalid for '--rate <hz>'
            Usage: tiltd run <options>
              See 'tiltd run --help' for more information.

            """),
        (["run", "--rate", "-5"], 64, """
            tiltd: error: --rate -5.0 is not a rate in Hz: give a number above 0 and at most 100000
            Usage: tiltd run <options>
              See 'tiltd run --help' for more information.

            """),
        (["run", "--on-demand"], 64, nil), (["--socket-group", "x"], 64, nil), (["run", "extra"], 64, nil),
        (["run", "--help"], 0, nil), (["run", "--version"], 0, nil),
    ]

    /// The same words through the exec (`tiltd` in the build folder), in
    /// process (a copy of `tiltd` alone) and to `tiltd-run` itself: the same
    /// output and status, and the texts above.
    @Test func usageErrorsAndHelpReadAsBefore() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let alone = URL(fileURLWithPath: dir + "/tiltd")
        try FileManager.default.copyItem(at: TiltdProcess.binary, to: alone)
        for (arguments, status, stderr) in Self.usage {
            let exec = try TiltdProcess.run(arguments)
            let inProcess = try TiltdProcess.execute(alone, arguments, timeout: 60)
            let direct = try TiltdProcess.execute(TiltdProcess.runBinary, arguments, timeout: 60)
            for result in [exec, inProcess, direct] {
                #expect(result.status == status && result.stdout == exec.stdout && result.stderr == exec.stderr,
                        "\(arguments): \(result.status) \(result.stderr)")
            }
            if let stderr { #expect(exec.stderr == stderr, "\(arguments)") }
        }
    }
}
