import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct CommandLineTests {
    @Test func versionIsPrinted() throws {
        let result = try TiltdProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func unknownOptionFailsWithOneLineError() throws {
        let result = try TiltdProcess.run(["replay", "recordings/synthetic-tilt-sweep.trace", "--no-such-option"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--no-such-option"))
    }
}
