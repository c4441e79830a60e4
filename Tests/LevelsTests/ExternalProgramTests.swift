import Foundation
import Testing
import TiltdTestSupport

/// The programs these tests start (pulseaudio, players, tiltd) get stdio and
/// nothing else: a descriptor the test process holds without close-on-exec
/// (SwiftNIO's accepted connections are such) must not stay open in them, or
/// a server's close of that connection never reaches its client.
@Suite(.timeLimit(.minutes(15))) struct ExternalProgramTests {
    @Test func aStartedProgramDoesNotInheritTheTestProcesssDescriptors() throws {
        let leaky = try InheritableDescriptor()
        #expect(leaky.isInheritable)
        let result = try ExternalProgram.run("sh", ["-c", "if [ -e /proc/$$/fd/\(leaky.number) ]; then echo held; else echo closed; fi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "closed\n", "the child held descriptor \(leaky.number), the test process's socket")
    }
}
