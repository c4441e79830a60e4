import Foundation
import Testing
import TiltdTestSupport

/// The command line's usage errors, refusals, clean stops and wording (issue 10).
@Suite struct CommandLineMessageTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    @Test func aMissingFileShowsTheReplayUsage() throws {
        let r = try TiltdProcess.run(["replay"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("missing <file>") && r.stderr.contains("Usage: tiltd replay ["), "\(r.stderr)")
        #expect(!r.stderr.contains("tiltd <subcommand>"))
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
