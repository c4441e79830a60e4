import Foundation
import Glibc
import Testing

/// The tests' private dbus-daemon outlives the moment it is started by a
/// whole test: it must hold none of the test process's descriptors.
@Suite(.enabled(if: PrivateBus.available)) struct PrivateBusTests {
    @Test func theDaemonInheritsNoneOfTheTestProcesssDescriptors() throws {
        // A socket without close-on-exec (as SwiftNIO accepts them), at a
        // number the daemon would not open for itself.
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socketDescriptor >= 0, "socket: errno \(errno)")
        defer { close(socketDescriptor) }
        let leaky = fcntl(socketDescriptor, F_DUPFD, 300)
        try #require(leaky >= 300, "fcntl F_DUPFD: errno \(errno)")
        defer { close(leaky) }
        let bus = try PrivateBus()
        let daemonsCopy = "/proc/\(bus.pid)/fd/\(leaky)"
        #expect(FileManager.default.fileExists(atPath: "/proc/\(bus.pid)/fd/0"), "no daemon at pid \(bus.pid)")
        #expect(!FileManager.default.fileExists(atPath: daemonsCopy),
                "the daemon holds \(daemonsCopy) → \((try? FileManager.default.destinationOfSymbolicLink(atPath: daemonsCopy)) ?? "?")")
    }
}
