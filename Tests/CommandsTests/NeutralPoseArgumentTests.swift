import Commands
import Motion
import Testing

/// `--neutral`'s parsing: `auto`, or two finite radians with spaces allowed.
@Suite(.timeLimit(.minutes(2))) struct NeutralPoseArgumentTests {
    @Test func autoAndTwoNumbersParse() {
        #expect(NeutralPoseSetting(argument: "auto") == .auto)
        #expect(NeutralPoseSetting(argument: "0,1.5708") == .fixed(roll: 0, pitch: 1.5708))
        #expect(NeutralPoseSetting(argument: " -0.25 , 1 ") == .fixed(roll: -0.25, pitch: 1))
    }

    @Test(arguments: ["", "Auto", "1", "1,2,3", "1,", "x,1", "nan,0", "0,inf", "1;2"])
    func anythingElseIsRefused(_ text: String) {
        #expect(NeutralPoseSetting(argument: text) == nil)
    }
}
