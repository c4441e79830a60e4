import Foundation
import Testing
import TiltdTestSupport

/// `serve`'s control options refuse what cannot work, in one line naming
/// the option, before anything listens.
@Suite(.timeLimit(.minutes(15))) struct ServeControlOptionsTests {
    static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    @Test(arguments: [
        (["--record-limit", "5"], "--record-limit 5.0 sets how long the ring records: give --record-dir DIR too"),
        (["--record-dir", "/nonexistent/tiltd-recordings"],
         "--record-dir /nonexistent/tiltd-recordings: there is no folder /nonexistent; create it first"),
        (["--record-dir", "/etc/hostname"], "--record-dir /etc/hostname is a file"),
        (["--record-dir", "/tmp", "--record-limit", "0.5"], "--record-limit 0.5: give 1 to 600 seconds"),
        (["--light-color", "red"], "--light-color must be six or eight hex digits"),
        (["--record-keep", "3"], "--record-keep 3 caps the ring's recordings: give --record-dir DIR too"),
        (["--record-max-mib", "3"], "--record-max-mib 3 caps the ring's recordings: give --record-dir DIR too"),
        (["--record-dir", "/tmp", "--record-keep", "0"], "--record-keep 0: give 1 to 100000 recordings"),
        (["--record-dir", "/tmp", "--record-max-mib", "0"], "--record-max-mib 0: give 1 to 1048576 MiB"),
        (["--max-streams", "4", "--max-streams-per-client", "5"], "--max-streams-per-client 5: give 1 to --max-streams (4)"),
    ])
    func badControlOptionsAreNamed(arguments: [String], message: String) throws {
        let result = try TiltdProcess.run(["serve", "--replay", Self.recording, "--port", "0"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("serving http"), "refused before listening")
    }
}
