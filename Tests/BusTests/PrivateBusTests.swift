import Foundation
import Testing
import TiltdTestSupport

/// The tests' private dbus-daemon outlives the moment it is started by a
/// whole test: it must hold none of the test process's descriptors.
@Suite(.enabled(if: PrivateBus.available), .timeLimit(.minutes(15))) struct PrivateBusTests {
    @Test func theDaemonInheritsNoneOfTheTestProcesssDescriptors() throws {
        let leaky = try InheritableDescriptor()
        #expect(leaky.isInheritable)
        let bus = try PrivateBus()
        #expect(FileManager.default.fileExists(atPath: "/proc/\(bus.pid)/fd/0"), "no daemon at pid \(bus.pid)")
        #expect(!leaky.isOpen(in: bus.pid), "the daemon holds the test process's descriptor \(leaky.number)")
    }
}
