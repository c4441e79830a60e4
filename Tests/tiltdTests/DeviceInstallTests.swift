import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceInstallTests {
    static let rules = TiltdProcess.repositoryRoot.appendingPathComponent("udev/70-tiltd.rules")

    /// The rule's RUN+= command, run on a fake sysfs device directory, makes
    /// exactly the attributes tiltd writes group-writable, and nothing else.
    @Test func udevRuleOpensExactlyTheFilesTiltdWrites() throws {
        let text = try String(contentsOf: Self.rules, encoding: .utf8)
        let run = try #require(text.split(separator: "\n").first { $0.hasPrefix("RUN+=\"/bin/sh -c '") })
        var command = String(run.dropFirst("RUN+=\"/bin/sh -c '".count).dropLast("'\"".count))
        let directory = DeviceTestSupport.temporaryFile("sysfs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let writable = ["buffer/enable", "buffer/length", "trigger/current_trigger", "sampling_frequency",
                        "current_timestamp_clock", "scan_elements/in_accel_x_en", "scan_elements/in_timestamp_en"]
        let untouched = ["name", "in_accel_x_raw", "scan_elements/in_accel_x_type", "buffer/data_available"]
        for file in writable + untouched {
            let url = directory.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: Data("0\n".utf8),
                                           attributes: [.posixPermissions: 0o644])
        }
        // udev's substitutions: %S%p is the device directory, $$ a literal $.
        // The group is ours (no "tiltd" group on a test machine).
        let group = String(cString: getgrgid(getgid())!.pointee.gr_name)
        command = command.replacingOccurrences(of: "%S%p", with: directory.path)
            .replacingOccurrences(of: "$$", with: "$").replacingOccurrences(of: "\\\"", with: "\"")
            .replacingOccurrences(of: "chgrp tiltd", with: "chgrp \(group)")
        let rules = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(!rules.contains("chmod -R") && !rules.contains("0777"))
        let result = try DeviceTestSupport.run(["/bin/sh", "-c", command])
        #expect(result.status == 0, "\(result.stderr)")
        for file in writable {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.posixPermissions] as? Int
            #expect(mode == 0o664, "\(file)")
        }
        for file in untouched {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(file)")
        }
        #expect(text.contains("GROUP=\"tiltd\", MODE=\"0660\""))
    }

    @Test func unitKeepsDevicesAndSysfsReachable() throws {
        let unit = try String(contentsOf: TiltdProcess.repositoryRoot.appendingPathComponent("udev/tiltd.service"),
                              encoding: .utf8)
        let settings = unit.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        for required in ["ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "MemoryDenyWriteExecute=yes",
                         "SupplementaryGroups=tiltd", "RuntimeDirectory=tiltd",
                         "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "DeviceAllow=char-iio rw",
                         "DeviceAllow=char-input r", "DevicePolicy=closed"] {
            #expect(settings.contains(required), "\(required)")
        }
        #expect(!settings.contains { $0.hasPrefix("PrivateDevices=yes") || $0.hasPrefix("ProtectKernelTunables=yes") })
    }

    /// The unit as `make install` writes it, into `directory`, with an
    /// executable at its ExecStart (systemd-analyze verify checks that).
    static func installedUnit(in directory: String) throws -> String {
        let bin = directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: bin + "/tiltd-run", contents: Data("#!/bin/sh\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        let text = try String(contentsOf: TiltdProcess.repositoryRoot.appendingPathComponent("udev/tiltd.service"),
                              encoding: .utf8)
            .replacingOccurrences(of: "@BINDIR@", with: bin)
            .replacingOccurrences(of: "@DOCDIR@", with: directory + "/doc")
        let unit = directory + "/tiltd.service"
        try text.write(toFile: unit, atomically: true, encoding: .utf8)
        return unit
    }

    /// `systemd-analyze security` rates the unit 2.5 or
    /// better (it was 6.0), and `systemd-analyze verify` accepts it.
    @Test func unitIsHardenedAndValid() throws {
        try DeviceTestSupport.require("/usr/bin/systemd-analyze")
        let unit = try Self.installedUnit(in: try TestPaths.temporaryDirectory())
        let security = try DeviceTestSupport.run(["/usr/bin/systemd-analyze", "security", "--offline=true", unit],
                                                 timeout: 60)
        let overall = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                   "\(security.stdout)\(security.stderr)")
        let score = try #require(Double(overall.split(separator: ":").last!.split(separator: " ").first!),
                                 "\(overall)")
        #expect(score <= 2.5, "\(overall)")
        let verify = try DeviceTestSupport.run(["/usr/bin/systemd-analyze", "verify", unit], timeout: 60)
        // Complaints about the unit itself name it; the host's other units
        // (absent in a container) are not this test's business.
        let complaints = (verify.stdout + verify.stderr).split(separator: "\n").filter { $0.contains("tiltd.service") }
        #expect(complaints.isEmpty, "\(complaints)")
    }
}
