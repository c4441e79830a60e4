import Foundation
@testable import Motion
import Testing

/// The discrete orientation has a hold time, hysteresis,
/// no decision while shaking, and face up / face down.
@Suite(.timeLimit(.minutes(2))) struct OrientationTrackerTests {
    static let g = 9.81

    /// Gravity as read with the device turned `degrees` in the screen's
    /// plane from upright (normal) toward left edge up, tipped back by `back`.
    static func turned(_ degrees: Double, back: Double = 0) -> SIMD3<Double> {
        let a = degrees * .pi / 180, b = back * .pi / 180
        return SIMD3(sin(a) * cos(b), -cos(a) * cos(b), sin(b)) * g
    }

    /// Feeds `vector` every 10 ms from `start` for `seconds` (shaken or not)
    /// and returns the decisions.
    static func feed(_ tracker: inout OrientationTracker, _ vector: SIMD3<Double>, from start: Double,
                     seconds: Double, shaking: Bool = false) -> [OrientationTracker.Decision] {
        let count = Int((seconds * 100).rounded())
        return (0..<count).map { i in
            tracker.update(vector, timestampNanoseconds: Int64(((start + Double(i) * 0.01) * 1e9).rounded()),
                           shaking: shaking)
        }
    }

    static let normal = OrientationTracker.Decision(edge: .normal)
    static let leftUp = OrientationTracker.Decision(edge: .leftUp)

    @Test func theFirstDecisionIsImmediate() {
        var tracker = OrientationTracker()
        #expect(tracker.update(Self.turned(0), timestampNanoseconds: 5, shaking: false) == Self.normal)
    }

    @Test func aTiltShorterThanTheHoldTimeChangesNothing() {
        var tracker = OrientationTracker()
        _ = Self.feed(&tracker, Self.turned(0), from: 0, seconds: 1)
        let brief = Self.feed(&tracker, Self.turned(90), from: 1, seconds: 0.95)
        #expect(brief.allSatisfy { $0 == Self.normal })
        let back = Self.feed(&tracker, Self.turned(0), from: 1.95, seconds: 1)
        #expect(back.allSatisfy { $0 == Self.normal })
        // Held: it changes exactly when the hold time has passed.
        let held = Self.feed(&tracker, Self.turned(90), from: 2.95, seconds: 1.5)
        #expect(held.prefix(100).allSatisfy { $0 == Self.normal })
        #expect(held.dropFirst(100).allSatisfy { $0 == Self.leftUp })
    }

    @Test func theHoldTimeIsConfigurable() {
        var tracker = OrientationTracker(holdSeconds: 0.25)
        _ = Self.feed(&tracker, Self.turned(0), from: 0, seconds: 1)
        let held = Self.feed(&tracker, Self.turned(90), from: 1, seconds: 0.5)
        #expect(held.firstIndex(of: Self.leftUp) == 25)
    }

    @Test func aTurnSwitchesOnlyFifteenDegreesPastTheDiagonal() {
        var tracker = OrientationTracker()
        _ = Self.feed(&tracker, Self.turned(0), from: 0, seconds: 1)
        // 57°: iio-sensor-proxy's rule switches (portrait 57° > 35°, landscape 33° ≤ 35°).
        #expect(OrientationClassifier.decide(Self.turned(57), previous: .normal) == .leftUp)
        #expect(Self.feed(&tracker, Self.turned(57), from: 1, seconds: 3).last == Self.normal)
        #expect(Self.feed(&tracker, Self.turned(61), from: 4, seconds: 1.5).last == Self.leftUp)
        // Back: still left-up at 32° (15° past the diagonal the other way is 30°).
        #expect(Self.feed(&tracker, Self.turned(32), from: 5.5, seconds: 3).last == Self.leftUp)
        #expect(Self.feed(&tracker, Self.turned(28), from: 8.5, seconds: 1.5).last == Self.normal)
    }

    @Test func jitterAcrossAThresholdDoesNotRestartTheHold() {
        // Entered at 61°, the candidate stays left-up down to 30°: a hand
        // wobbling between 58° and 62° does not keep restarting the hold.
        var tracker = OrientationTracker()
        _ = Self.feed(&tracker, Self.turned(0), from: 0, seconds: 1)
        var decisions: [OrientationTracker.Decision] = []
        for i in 0..<150 {
            let angle = i % 2 == 0 ? 62.0 : 58.0
            decisions.append(tracker.update(Self.turned(angle), timestampNanoseconds: Int64(100 + i) * 10_000_000,
                                            shaking: false))
        }
        #expect(decisions.firstIndex(of: Self.leftUp) == 100)
    }

    @Test func noDecisionWhileShaking() {
        var tracker = OrientationTracker()
        _ = Self.feed(&tracker, Self.turned(0), from: 0, seconds: 1)
        let shaken = Self.feed(&tracker, Self.turned(90), from: 1, seconds: 3, shaking: true)
        #expect(shaken.allSatisfy { $0 == Self.normal })
        // Quiet again: the hold starts over from the end of the shake.
        let quiet = Self.feed(&tracker, Self.turned(90), from: 4, seconds: 1.5)
        #expect(quiet.firstIndex(of: Self.leftUp) == 100)
    }

    @Test func shakingDoesNotDecideTheFirstOrientationEither() {
        var tracker = OrientationTracker()
        let shaken = Self.feed(&tracker, Self.turned(90), from: 0, seconds: 1, shaking: true)
        #expect(shaken.allSatisfy { $0.isUndefined })
        #expect(tracker.update(Self.turned(90), timestampNanoseconds: 1_000_000_000, shaking: false) == Self.leftUp)
    }

    @Test func faceUpAndFaceDownKeepTheEdge() {
        var tracker = OrientationTracker()
        _ = Self.feed(&tracker, Self.turned(0), from: 0, seconds: 1)
        // Tipped back 80°: face up after the hold, normal kept for the screen.
        let flat = Self.feed(&tracker, Self.turned(0, back: 80), from: 1, seconds: 1.5)
        #expect(flat.firstIndex(of: OrientationTracker.Decision(edge: .normal, facing: .up)) == 100)
        // 72°: still face up (left below 65°, entered beyond 75°).
        #expect(Self.feed(&tracker, Self.turned(0, back: 72), from: 2.5, seconds: 2).last?.facing == .up)
        #expect(Self.feed(&tracker, Self.turned(0, back: 60), from: 4.5, seconds: 1.5).last == Self.normal)
        // Turned over: face down.
        let down = Self.feed(&tracker, Self.turned(0, back: -85), from: 6, seconds: 1.5)
        #expect(down.last == OrientationTracker.Decision(edge: .normal, facing: .down))
        // Lying flat from the start: face up at once, no edge yet ("undefined" on D-Bus).
        var fresh = OrientationTracker()
        #expect(fresh.update(SIMD3(0, 0, Self.g), timestampNanoseconds: 0, shaking: false)
                == OrientationTracker.Decision(facing: .up))
    }

    @Test func aTimestampGoingBackwardsRestartsTheHold() {
        var tracker = OrientationTracker()
        _ = Self.feed(&tracker, Self.turned(0), from: 10, seconds: 1)
        _ = Self.feed(&tracker, Self.turned(90), from: 11, seconds: 0.5)
        #expect(Self.feed(&tracker, Self.turned(90), from: 0, seconds: 0.95).allSatisfy { $0 == Self.normal })
    }

    // The pipeline: the tracker sees the pipeline's gravity and its shake judgement.

    static func pipelineStates(_ vectors: [(seconds: Double, vector: SIMD3<Double>)]) -> [TiltState] {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, screenOrientation: .auto))
        var states: [TiltState] = []
        var t = 0.0
        for (seconds, vector) in vectors {
            for _ in 0..<Int((seconds * 100).rounded()) {
                states.append(pipeline.process(Reading(timestampNanoseconds: Int64((t * 1e9).rounded()),
                                                       acceleration: vector))!)
                t += 0.01
            }
        }
        return states
    }

    @Test func thePipelineHoldsABriefTilt() {
        let states = Self.pipelineStates([(1, Self.turned(0)), (0.6, Self.turned(90)), (1, Self.turned(0))])
        #expect(states.allSatisfy { $0.orientation == .normal })
        let held = Self.pipelineStates([(1, Self.turned(0)), (2, Self.turned(90))])
        #expect(held.last?.orientation == .leftUp)
        // The screen turned with it: upright again in the new frame.
        #expect(abs((held.last?.pitch ?? 0) - Double.pi / 2) < 1e-3)
    }

    @Test func thePipelineDecidesNothingWhileShaken() {
        // 2 g toward the left edge for 2 s: outside the quiet band, so
        // however long it lasts it is a shake, not a turn.
        let states = Self.pipelineStates([(1, Self.turned(0)), (2, Self.turned(90) * 2)])
        #expect(states.allSatisfy { $0.orientation == .normal })
    }

    @Test func thePipelineReportsFaceUp() {
        let states = Self.pipelineStates([(1, Self.turned(0)), (2, SIMD3(0, 0, Self.g))])
        #expect(states.last?.facing == .up)
        #expect(states.last?.orientation == .normal)
    }
}
