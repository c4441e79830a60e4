import Knob
import Motion

/// Distinct, predictable knob states for the streaming tests.
public enum TestStates {
    /// State number `index`: t = index × 5 ms, roll growing by 1 mrad a state,
    /// so every state has a distinct JSON line.
    public static func state(_ index: Int) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: Int64(index) * 5_000_000,
                                  roll: Double(index) * 0.001, pitch: -0.25,
                                  orientation: .normal))
    }

    /// The JSON line of `state(index)`, without its newline.
    public static func line(_ index: Int) -> String {
        String(state(index).jsonLine.dropLast())
    }
}
