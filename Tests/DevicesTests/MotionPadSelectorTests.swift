@testable import Devices
import Motion
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(2))) struct MotionPadSelectorTests {
    static func pad(_ node: String, _ name: String?) -> MotionPadCandidate {
        MotionPadCandidate(node: node, name: name, udevMountMatrix: nil)
    }

    static let pads = [pad("/dev/input/event5", "Sony Interactive Entertainment Wireless Controller Motion Sensors"),
                       pad("/dev/input/event7", "Steam Deck Motion Sensors"),
                       pad("/dev/input/event9", nil)]

    @Test func choosesByNodeByNameOrByPartOfTheName() throws {
        #expect(try MotionPadSelector().choose(from: Self.pads) == 0)
        #expect(try MotionPadSelector(query: "/dev/input/event7").choose(from: Self.pads) == 1)
        #expect(try MotionPadSelector(query: "Steam Deck Motion Sensors").choose(from: Self.pads) == 1)
        #expect(try MotionPadSelector(query: "steam deck").choose(from: Self.pads) == 1)
        #expect(try MotionPadSelector(query: "/dev/input/event9").choose(from: Self.pads) == 2)
    }

    @Test func saysWhatExistsWhenNothingMatches() {
        #expect(throws: MotionPadSelectionError.noMatch(
            query: "/dev/input/event2",
            available: Self.pads.map(\.displayName))) {
            try MotionPadSelector(query: "/dev/input/event2").choose(from: Self.pads)
        }
        #expect(throws: MotionPadSelectionError.noMotionSensor) { try MotionPadSelector().choose(from: []) }
    }

    @Test func permissionDeniedExplainsTheUdevRuleForMotionSensorsOnly() {
        let message = "\(EvdevError("opening", on: "/dev/input/event5", errno: Errno(EACCES)))"
        #expect(message.hasPrefix("opening /dev/input/event5 failed: Permission denied (EACCES): "))
        #expect(message.contains("udev/70-tiltd.rules"))
        #expect(message.contains("group tiltd"))
        #expect(message.contains("ID_INPUT_ACCELEROMETER=1"))
        #expect(message.contains("never to keyboards"))
    }
}
