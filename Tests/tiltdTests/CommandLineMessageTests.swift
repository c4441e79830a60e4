import Foundation
import Testing
import TiltdTestSupport

/// The command line's usage errors, refusals, clean stops and wording.
@Suite(.timeLimit(.minutes(15))) struct CommandLineMessageTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    @Test func aMissingFileShowsTheReplayUsage() throws {
        let r = try TiltdProcess.run(["replay"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("missing <file>") && r.stderr.contains("Usage: tiltd replay ["), "\(r.stderr)")
        #expect(!r.stderr.contains("tiltd <subcommand>"))
    }

    /// The usage showed `[<file>]`, as if replay could do without one.
    @Test func theReplayUsageShowsTheFileRequired() throws {
        let help = try TiltdProcess.run(["replay", "--help"])
        #expect(help.stdout.contains("USAGE: tiltd replay [<options>] <file>\n"), "\(help.stdout)")
        let missing = try TiltdProcess.run(["replay"])
        #expect(missing.stderr.contains("Usage: tiltd replay [<options>] <file>\n"), "\(missing.stderr)")
        // A mistyped option is still named as such, not as a missing file.
        let typo = try TiltdProcess.run(["replay", "--bogus", Self.sweep])
        #expect(typo.status == 64 && typo.stderr.contains("Unknown option '--bogus'"), "\(typo.stderr)")
    }

    /// Usage errors began "Error:" (ArgumentParser's), failures
    /// "tiltd: error:" (the log's). Every error line now reads the same.
    static let failures: [(arguments: [String], status: Int32)] = [
        (["replay"], 64), (["nosuch"], 64), (["replay", "--bogus", "x"], 64), (["render", "--fps", "0", "x"], 64),
        (["replay", "/nonexistent/recording.trace"], 1), (["levels", "--levels-file", "/nonexistent/levels.jsonl"], 1),
        (["render", "/nonexistent/recording.trace", "--out", "/tmp/unused-frames"], 1),
    ]

    @Test(arguments: failures)
    func everyErrorStartsTheSame(arguments: [String], status: Int32) throws {
        let r = try TiltdProcess.run(arguments)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("tiltd: error: "), "\(r.stderr)")
        #expect(!r.stderr.contains("Error:"), "\(r.stderr)")
    }

    /// `--shake-band` and `--gyro-time-constant` showed two
    /// defaults (one in the text, one ArgumentParser's). At most one each.
    @Test(arguments: ["run", "replay", "render", "record", "serve", "list", "levels", "draw", "monitor"])
    func everyOptionShowsAtMostOneDefault(command: String) throws {
        let help = try TiltdProcess.run([command, "--help"])
        #expect(help.status == 0)
        // One entry per option: its first line starts "  -", the rest are indented further.
        var entries: [String] = []
        for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") { entries.append(String(line)) } else if line.hasPrefix("     "), !entries.isEmpty {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        #expect(!entries.isEmpty)
        // ArgumentParser adds "(default: X)" for an option with a value; the text then says none.
        for entry in entries {
            guard let shown = entry.range(of: "(default: ") else { continue }
            #expect(!entry[..<shown.lowerBound].contains("default"), "\(command): \(entry)")
        }
    }

    @Test func anUnknownCommandIsNamedWithTheCommandList() throws {
        let r = try TiltdProcess.run(["nosuch"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("'nosuch' is not a tiltd command; the commands are run, list, record, replay, render, serve"),
                "\(r.stderr)")
        #expect(r.stderr.contains("Usage: tiltd <subcommand>") && !r.stderr.contains("tiltd run <options>"))
    }

    @Test func optionsThatCannotApplyAreRefused() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-msg-\(getpid()).sock").path
        let listen = try TiltdProcess.run(["replay", Self.sweep, "--listen", "unix:\(socket)"])
        #expect(listen.status == 64 && listen.stderr.contains("give --realtime too"), "\(listen.stderr)")
        #expect(listen.stdout.isEmpty)
        let onDemand = try TiltdProcess.run(["replay", Self.sweep, "--realtime", "--listen", "unix:\(socket)", "--on-demand"])
        #expect(onDemand.status == 64 && onDemand.stderr.contains("--on-demand"), "\(onDemand.stderr)")
        let help = try TiltdProcess.run(["replay", "--help"])
        #expect(!help.stdout.contains("--on-demand"))
        let runHelp = try TiltdProcess.run(["run", "--help"])
        #expect(runHelp.stdout.contains("--on-demand"))
        let serve = try TiltdProcess.run(["serve", "--replay", Self.sweep, "--device", "iio:device0", "--port", "0"])
        #expect(serve.status == 64, "\(serve.stderr)")
        #expect(serve.stderr.contains("--device chooses how to read an accelerometer, but --replay"), "\(serve.stderr)")
        #expect(!serve.stderr.contains("serving http"))
    }

    @Test func serveNamesHostWhenItCannotBind() throws {
        // 192.0.2.1 is TEST-NET-1: never an address of this machine.
        let r = try TiltdProcess.run(["serve", "--host", "192.0.2.1", "--port", "0", "--replay", Self.sweep])
        #expect(r.status == 1)
        #expect(r.stderr.contains("check --host 192.0.2.1"), "\(r.stderr)")
        #expect(!r.stderr.contains("serving http"))
    }

    @Test func serveOpensTheDeviceBeforeAnnouncingThePage() throws {
        let r = try TiltdProcess.run(["serve", "--port", "0", "--device", "tiltd-test-no-such-device"], timeout: 60)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("serving http"), "\(r.stderr)")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func realtimeReplayStopsCleanlyOnASignal(_ signal: Int32) throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-rt-\(getpid())-\(signal).sock").path
        let process = try SocketTiltdProcess(["replay", Self.sweep, "--realtime", "--listen", "unix:\(socket)"])
        #expect(process.waitFor { process.stdout.contains("\n") }, "\(process.stderr)")
        #expect(process.stop(with: signal))
        #expect(process.process.terminationReason == .exit && process.process.terminationStatus == 0,
                "\(process.process.terminationStatus) \(process.stderr)")
        #expect(process.stderr.contains("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): stopping"))
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func messagesReadAsSentences() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-msg-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = dir.appendingPathComponent("one.trace")
        try Data("tiltd-trace 1\ns 0 0 0 9.81\n".utf8).write(to: one)
        let render = try TiltdProcess.run(["render", one.path, "--out", dir.appendingPathComponent("f").path, "--size", "16"])
        #expect(render.status == 0 && render.stderr.contains("from 1 state;"), "\(render.stderr)")
        let mkdir = try TiltdProcess.run(["render", one.path, "--out", "/proc/tiltd-none/frames", "--size", "16"])
        #expect(mkdir.status == 1)
        #expect(!mkdir.stderr.contains("The operation could not be completed") && !mkdir.stderr.contains(".;"),
                "\(mkdir.stderr)")
        let list = try TiltdProcess.run(["list"], devices: [TiltdProcess.fixtures.appendingPathComponent("buffered.umockdev")])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("(none found, so the identity)") && !list.stdout.contains("))"), "\(list.stdout)")
    }
}
