import GoldenTesting
@testable import Knob
import Motion
import Testing

/// Whole frames against PNGs under Golden/, a few states at two sizes in
/// both styles. Tolerance: 2 levels per channel (room for libm differences
/// in the layer painting between machines); any pixel beyond it fails with
/// the count and the first one. `RECORD_GOLDEN=1` rewrites them (and fails).
@Suite(.timeLimit(.minutes(2))) struct GoldenFrameTests {
    static let states: [(name: String, roll: Double, pitch: Double)] = [
        ("rest", 0, 0), ("roll0.3-pitch0.1", 0.3, 0.1), ("roll-0.6-pitch0.4", -0.6, 0.4),
    ]

    @Test(arguments: [KnobStyle.mtz, .tltilt], [48, 128])
    func framesMatchGolden(style: KnobStyle, size: Int) {
        var renderer = KnobRenderer(size: size, style: style)
        var frame = renderer.makeFrame()
        for s in Self.states {
            let tilt = TiltState(timestampNanoseconds: 0, roll: s.roll, pitch: s.pitch, orientation: .normal)
            renderer.render(shines: ShinePair(roll: s.roll, pitch: s.pitch), tilt: tilt, into: &frame)
            let problem = GoldenImage.knob.check(frame, named: "\(style.rawValue)-\(size)-\(s.name)", tolerance: 2)
            #expect(problem == nil, "\(problem ?? "")")
        }
    }
}
