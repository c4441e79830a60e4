import Foundation
import Knob
import Motion

/// States, JSON lines and polling shared by the web tests.
enum WebTestStates {
    /// State `index`: t = 5 ms × index, a slow roll, pitch −0.25 rad.
    static func state(_ index: Int) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: Int64(index) * 5_000_000,
                                  roll: Double(index) * 0.001, pitch: -0.25, orientation: .normal))
    }

    /// State `index`'s JSON Lines record without its newline.
    static func line(_ index: Int) -> String {
        String(state(index).jsonLine.dropLast())
    }

    /// Polls `condition` every 10 ms for up to `seconds`.
    static func eventually(_ seconds: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// A fresh directory under /tmp.
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/tiltd-web-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw WebTestClient.Failure(description: "mkdtemp failed") }
        return String(cString: made)
    }
}
