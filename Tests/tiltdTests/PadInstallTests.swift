import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct PadInstallTests {
    /// The rule's input section: from LABEL="tiltd_input" to LABEL="tiltd_end",
    /// continuation lines joined, comments dropped.
    static func inputRules() throws -> [String] {
        let text = try String(contentsOf: DeviceInstallTests.rules, encoding: .utf8)
            .replacingOccurrences(of: "\\\n", with: "")
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let start = try #require(lines.firstIndex(of: "LABEL=\"tiltd_input\""))
        let end = try #require(lines.lastIndex(of: "LABEL=\"tiltd_end\""))
        return Array(lines[(start + 1)..<end])
    }

    /// Group tiltd may read motion-sensor event nodes (ID_INPUT_ACCELEROMETER=1)
    /// and nothing else under /dev/input: no keyboard, no write access, no
    /// change of the node's own group or mode.
    @Test func udevRuleGrantsReadAccessToMotionSensorNodesOnly() throws {
        let rules = try Self.inputRules()
        #expect(!rules.isEmpty)
        for rule in rules {
            #expect(rule.contains("KERNEL==\"event*\""), "\(rule)")
            #expect(rule.contains("ENV{ID_INPUT_ACCELEROMETER}==\"1\""), "\(rule)")
            #expect(rule.contains("ENV{ID_INPUT_KEYBOARD}!=\"1\"") && rule.contains("ENV{ID_INPUT_KEY}!=\"1\""), "\(rule)")
            #expect(!rule.contains("GROUP=") && !rule.contains("MODE="), "\(rule)")
            #expect(rule.hasSuffix("RUN+=\"/usr/bin/setfacl -m g:tiltd:r $env{DEVNAME}\""), "\(rule)")
        }
        // The IIO section (GROUP/MODE, attribute chmods) is skipped for input devices.
        let text = try String(contentsOf: DeviceInstallTests.rules, encoding: .utf8)
        let jump = try #require(text.range(of: "SUBSYSTEM==\"input\", GOTO=\"tiltd_input\""))
        let iioGroup = try #require(text.range(of: "GROUP=\"tiltd\", MODE=\"0660\""))
        #expect(jump.upperBound < iioGroup.lowerBound)
    }
}
