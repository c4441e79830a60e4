import Foundation
import Testing
import TiltdTestSupport

/// Standard output failing ends the run through its normal end (no exit()
/// on the capture thread): one error line, status 1, and the socket file
/// removed as after any other stop.
@Suite(.timeLimit(.minutes(15))) struct StdoutFailureTests {
    /// `tiltd replay --realtime --listen unix:P FILE | head -2`: the reader
    /// goes after two lines. SIGPIPE must not end tiltd: it reports the
    /// broken pipe, removes P and its lock, and exits 1.
    @Test func aReaderThatGoesEndsTheRunWithAnErrorNotSIGPIPE() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socket = dir + "/t.sock", errors = dir + "/stderr"
        let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path
        let r = try TiltdProcess.execute(URL(fileURLWithPath: "/bin/bash"), [
            "-c", "\"$0\" replay --realtime --listen unix:\(socket) \(sweep) 2>\(errors) | head -2 >/dev/null; "
                + "echo \"${PIPESTATUS[0]}\"", TiltdProcess.binary.path,
        ], timeout: 60)
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(r.stdout == "1\n", "exit status \(r.stdout), stderr: \(stderr)")
        #expect(stderr.hasSuffix("tiltd: error: cannot write to standard output: Broken pipe\n"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: socket + ".lock"))
    }

    @Test func aReplayWhoseStdoutCannotBeWrittenStopsWithOneErrorAndRemovesItsSocket() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let readOnly = dir + "/stdout", socket = dir + "/t.sock"
        _ = FileManager.default.createFile(atPath: readOnly, contents: Data())
        let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path
        // Standard output opened for reading only: every write fails (EBADF).
        let r = try TiltdProcess.execute(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "exec \"$0\" replay --realtime --listen unix:\(socket) \(sweep) 1<\(readOnly)", TiltdProcess.binary.path,
        ], timeout: 60)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("tiltd: error: cannot write to standard output: Bad file descriptor\n"),
                "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "tiltd: error:").count == 2, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
