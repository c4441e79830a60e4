import Foundation
import Testing
import TiltdTestSupport

/// The programs these tests start (pulseaudio, players, tiltd) get stdio and
/// nothing else: a descriptor the test process holds without close-on-exec
/// (SwiftNIO's accepted connections are such) must not stay open in them, or
/// a server's close of that connection never reaches its client.
@Suite struct ExternalProgramTests {
    @Test func aStartedProgramDoesNotInheritTheTestProcesssDescriptors() throws {
        // A socket without close-on-exec, like an accepted connection, at a
        // number the shell would not open for itself.
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socketDescriptor >= 0, "socket: errno \(errno)")
        defer { close(socketDescriptor) }
        let leaky = fcntl(socketDescriptor, F_DUPFD, 300)
        try #require(leaky >= 300, "fcntl F_DUPFD: errno \(errno)")
        defer { close(leaky) }
        #expect(fcntl(leaky, F_GETFD) & FD_CLOEXEC == 0)
        let result = try ExternalProgram.run("sh", ["-c", "if [ -e /proc/$$/fd/\(leaky) ]; then echo held; else echo closed; fi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "closed\n", "the child held descriptor \(leaky), the test process's socket")
    }
}
