@testable import Bus
import Foundation
import Testing

/// dbus/net.tiltd.Tilt.conf on a private bus configured like Debian's system
/// bus (owning denied, method calls denied unless a policy allows them).
@Suite(.enabled(if: PrivateBus.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")), .timeLimit(.minutes(15)))
struct PolicyFileTests {
    static let policy = ChildProcess.repositoryRoot.appendingPathComponent("dbus/net.tiltd.Tilt.conf")

    /// A system-like bus whose only extra policy is `policyPath`.
    static func systemLikeBus(including policyPath: String, in directory: URL) throws -> PrivateBus {
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
              </policy>
              <include>\(policyPath)</include>
            </busconfig>
            """
        let file = directory.appendingPathComponent("system.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        return try PrivateBus(configuration: ["--config-file=\(file.path)"])
    }

    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func onlyUserTiltdMayOwnTheName() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bus = try Self.systemLikeBus(including: Self.policy.path, in: directory)
        let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        try #require(user != "tiltd", "run the tests as a user other than tiltd")
        #expect(throws: TiltBusError.nameRefused(name: "net.tiltd.Tilt", bus: "the bus at \(bus.address)")) {
            try TiltService(bus: .address(bus.address), properties: TiltProperties(), onClaimCountChanged: { _ in },
                            report: { _ in })
        }
    }

    @Test func anyoneMayClaimTheOwnersService() throws {
        // The same policy with this test's user in tiltd's place, so that it may own the name.
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        let text = try String(contentsOf: Self.policy, encoding: .utf8)
        #expect(text.contains(#"<policy user="tiltd">"#))
        let copy = directory.appendingPathComponent("net.tiltd.Tilt.conf")
        try text.replacingOccurrences(of: #"<policy user="tiltd">"#, with: #"<policy user="\#(user)">"#)
            .write(to: copy, atomically: true, encoding: .utf8)
        let bus = try Self.systemLikeBus(including: copy.path, in: directory)
        let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(),
                                      onClaimCountChanged: { _ in }, report: { _ in })
        defer { service.requestStop() }
        let client = try ChildProcess("/usr/bin/python3", [ChildProcess.fixture("dbus-client.py"), bus.address, "release"])
        #expect(client.waitFor { client.stdout.contains("released") || !client.isRunning },
                "\(client.stdout)\n\(client.stderr)")
        #expect(client.stdout.contains("released"), "\(client.stdout)\n\(client.stderr)")
    }
}
