import Foundation
@testable import Levels
import Testing
import TiltdTestSupport

/// `tiltd levels` end to end, as a user runs it.
@Suite(.serialized, .timeLimit(.minutes(15))) struct LevelsCommandTests {
    /// The `tiltd` binary beside the test bundle (swift build links it there).
    static var tiltd: String {
        let beside = Bundle.main.bundleURL.appendingPathComponent("tiltd").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/tiltd").path
    }

    static func lines(_ text: String) throws -> [ChannelLevels] {
        try LevelTrack.decodeJSONLines(Data(text.utf8), path: "stdout").records
    }

    @Test func liveLevelsFromARealServerStopAfterCount() async throws {
        try await PulseTestServer.with { server in
            let result = try ExternalProgram.run(Self.tiltd, ["levels", "--count", "50"],
                                                 environment: server.environment, timeoutSeconds: 60)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let records = try Self.lines(result.stdout)
            #expect(records.count == 50)
            #expect(records.allSatisfy { $0.left == 0 && $0.right == 0 }, "a silent null sink lit the rows")
        }
    }

    @Test func sigintStopsWithStatusZero() async throws {
        try await PulseTestServer.with { server in
            let out = server.folder.appendingPathComponent("levels.out").path
            let child = try ExternalProgram.start(Self.tiltd, ["levels"], environment: server.environment,
                                                  stdoutPath: out)
            defer { ExternalProgram.waitForExit(child, timeoutSeconds: 0) }
            // Ready when the first line is out.
            let deadline = Date().addingTimeInterval(30)
            while ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").isEmpty, Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            child.signal(SIGINT)
            #expect(ExternalProgram.waitForExit(child, timeoutSeconds: 30))
            #expect(child.status == 0)
            let text = try String(contentsOfFile: out, encoding: .utf8)
            #expect(text.hasSuffix("\n"), "a line was cut short")
            #expect(try !Self.lines(text).isEmpty)
        }
    }

    @Test func noServerIsOneClearLineAndStatusOne() throws {
        let socket = "unix:/nonexistent-\(UUID().uuidString)/pulse/native"
        let result = try ExternalProgram.run(Self.tiltd, ["levels", "--count", "1"],
                                             environment: ["PULSE_SERVER": socket])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tiltd: error: no PulseAudio server at \(socket) (from PULSE_SERVER)"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "more than one line: \(result.stderr)")
    }

    @Test func levelsFileReplaysWAVAndJSONLines() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = try ToneFile.make(in: folder, name: "left.wav", seconds: 0.5, leftOnly: true)
        let fromWAV = try ExternalProgram.run(Self.tiltd, ["levels", "--levels-file", wav.path])
        #expect(fromWAV.status == 0, "stderr: \(fromWAV.stderr)")
        let records = try Self.lines(fromWAV.stdout)
        #expect(records.count == 72)
        #expect(records.last.map { $0.left > 0.8 && $0.right == 0 } == true)

        let jsonl = folder.appendingPathComponent("levels.jsonl")
        try Data(fromWAV.stdout.utf8).write(to: jsonl)
        let fromJSONL = try ExternalProgram.run(Self.tiltd, ["levels", "--levels-file", jsonl.path, "--count", "10"])
        #expect(fromJSONL.status == 0, "stderr: \(fromJSONL.stderr)")
        // Written back exactly as read.
        #expect(fromJSONL.stdout == fromWAV.stdout.split(separator: "\n").prefix(10).map { $0 + "\n" }.joined())
    }

    @Test(arguments: [
        (["levels", "--count", "0"], "--count must be a positive number"),
        (["levels", "--levels-file", "x.wav", "--source", "s"], "--levels-file replays a file"),
        (["levels", "--realtime"], "--realtime paces a --levels-file"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let result = try ExternalProgram.run(Self.tiltd, arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test func badLevelsFileNamesItsLine() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jsonl = folder.appendingPathComponent("bad.jsonl")
        try Data(#"{"t":0,"left":0,"right":0}"#.utf8 + Data("\n{\"t\":1}\n".utf8)).write(to: jsonl)
        let result = try ExternalProgram.run(Self.tiltd, ["levels", "--levels-file", jsonl.path])
        #expect(result.status == 1)
        #expect(result.stderr == "tiltd: error: \(jsonl.path):2: no \"left\" field; each line must be "
                + #"{"t":SECONDS,"left":0…1,"right":0…1} with t never decreasing"# + "\n")
    }

    /// A paced replay of t = 1e300 crashed converting it to a Duration.
    @Test func aTimeNoReplayCouldWaitForIsRefusedNotACrash() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jsonl = folder.appendingPathComponent("far.jsonl")
        try Data((#"{"t":-1,"left":0,"right":0}"# + "\n" + #"{"t":1e300,"left":1,"right":1}"# + "\n").utf8).write(to: jsonl)
        let result = try ExternalProgram.run(Self.tiltd, ["levels", "--levels-file", jsonl.path, "--realtime"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tiltd: error: \(jsonl.path):2: t 1e+300 is beyond ±10000000000 s"),
                "\(result.stderr)")
    }
}

extension LevelsCommandTests {
    @Test func losingTheServerIsSaidAndLevelsResumeWhenItReturns() async throws {
        let first = try PulseTestServer()
        defer { first.stop() }
        let out = first.folder.appendingPathComponent("levels.out").path
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("levels-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: err) }
        let child = try ExternalProgram.start(Self.tiltd, ["levels"], environment: first.environment,
                                              stdoutPath: out, stderrPath: err)
        defer { ExternalProgram.waitForExit(child, timeoutSeconds: 0) }
        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        func waitFor(_ condition: () -> Bool) async throws -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while !condition(), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            return condition()
        }
        #expect(try await waitFor { !text(out).isEmpty })
        first.stop(keepFolder: true)
        #expect(try await waitFor { text(err).contains("warning: lost PulseAudio at \(first.server)") },
                "stderr: \(text(err))")
        #expect(child.isRunning, "tiltd levels exited when the server went away")

        let second = try PulseTestServer(folder: first.folder)
        defer { second.stop() }
        let bytesBefore = text(out).utf8.count
        #expect(try await waitFor { text(err).contains("note: reconnected to PulseAudio at \(first.server)") })
        #expect(try await waitFor { text(out).utf8.count > bytesBefore + 2000 }, "no levels after reconnecting")
        child.signal(SIGINT)
        #expect(ExternalProgram.waitForExit(child, timeoutSeconds: 30))
        #expect(child.status == 0)
        // The two PulseAudio lines, then the lifecycle's stop line (as every command's).
        let lines = text(err).split(separator: "\n")
        #expect(lines.count == 3 && lines.last == "tiltd: SIGINT: stopping", "stderr: \(text(err))")
    }
}
