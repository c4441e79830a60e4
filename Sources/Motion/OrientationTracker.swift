import Glibc

/// The discrete orientation tiltd reports: which edge of
/// the device points up, or which way it faces while lying flat, decided
/// from the pipeline's gravity vector (the fused one when a gyroscope is
/// fused, the filtered accelerometer otherwise) with three guards that
/// iio-sensor-proxy lacks (SPEC §15: a screen that turns on a brief tilt or
/// while walking):
///
/// - **Hysteresis.** iio-sensor-proxy's rule (`OrientationClassifier`, SPEC
///   §5) enters an edge orientation when that edge is more than 35° above
///   the horizontal and the other pair of edges is not; this one asks for
///   35° + `hysteresisDegrees` against 35° − `hysteresisDegrees`, so a
///   device turned in the screen's plane switches 15° past the diagonal
///   (iio-sensor-proxy: 10°), and back only 15° past it the other way.
///   Face up or down (iio-sensor-proxy 3.6's `AccelerometerTilt` threshold,
///   70° from vertical) is entered beyond 70° + `hysteresisDegrees` and left
///   below 70° − `hysteresisDegrees`. Between the regions nothing changes.
/// - **Hold time.** What those rules decide (the candidate) is reported
///   only once it has stood for `holdSeconds` of the samples' own time: a
///   tilt shorter than that changes nothing. The first decision, from
///   undefined, is taken at once (there is nothing to keep).
/// - **Shaking.** A sample the pipeline judges shaken (`GravityEstimate`:
///   |a|² outside the quiet band, `PipelineConfiguration.shakeBand`) decides nothing and
///   restarts the hold: a decision needs `holdSeconds` of quiet.
///
/// Time comes only from the samples' timestamps (no clock is read), so the
/// same samples always give the same decisions. A timestamp that goes
/// backwards restarts the hold.
///
/// While the device lies flat the edge orientation in force is kept (as
/// iio-sensor-proxy keeps it), so the screen's frame does not change and
/// the D-Bus `Orientation` property, which has only iio-sensor-proxy's
/// names, keeps saying it; `facing` says face-up or face-down.
public struct OrientationTracker: Sendable {
    /// One decision: the edge orientation in force and, while lying flat, the face.
    public struct Decision: Sendable, Equatable {
        /// Which edge points up (kept while lying flat); nil: undefined so far.
        public var edge: ScreenOrientation?
        /// Which way the screen faces while lying flat; nil otherwise.
        public var facing: Facing?

        public init(edge: ScreenOrientation? = nil, facing: Facing? = nil) {
            self.edge = edge
            self.facing = facing
        }

        /// Inlinable: the synthesised one was a call, twice a sample.
        @inlinable public static func == (a: Decision, b: Decision) -> Bool {
            a.edge == b.edge && a.facing == b.facing
        }

        /// True before anything was decided.
        @inlinable public var isUndefined: Bool { edge == nil && facing == nil }
    }

    /// The default hold time in seconds.
    public static let defaultHoldSeconds = 1.0
    /// The default margin on each side of iio-sensor-proxy's thresholds, degrees.
    public static let defaultHysteresisDegrees = 5.0
    /// iio-sensor-proxy's edge threshold (THRESHOLD_PORTRAIT/LANDSCAPE), degrees.
    public static let edgeDegrees = 35.0
    /// iio-sensor-proxy 3.6's face-up/face-down threshold (THRESHOLD_FACE_DOWN), degrees.
    public static let faceDegrees = 70.0

    public let holdSeconds: Double
    public let hysteresisDegrees: Double

    /// What is reported.
    public var decision: Decision { settled }

    @usableFromInline let holdNanoseconds: Int64
    /// sin² of the thresholds: an angle above the horizontal compares as
    /// v_i² against sin²·|v|², with no trigonometry per sample.
    @usableFromInline let edgeEnterSquared: Double
    @usableFromInline let edgeOtherSquared: Double
    @usableFromInline let faceEnterSquared: Double
    @usableFromInline let faceStaySquared: Double
    @usableFromInline var settled = Decision()
    @usableFromInline var candidate = Decision()
    @usableFromInline var candidateSinceNanoseconds: Int64 = 0
    @usableFromInline var lastNanoseconds: Int64 = 0
    @usableFromInline var started = false

    /// - Parameters:
    ///   - holdSeconds: how long a new orientation must stand (≥ 0; 0: at once).
    ///   - hysteresisDegrees: the margin on each side of the thresholds (0…30).
    public init(holdSeconds: Double = OrientationTracker.defaultHoldSeconds,
                hysteresisDegrees: Double = OrientationTracker.defaultHysteresisDegrees) {
        precondition(holdSeconds >= 0 && holdSeconds <= 1e6, "the hold time must be 0…1e6 s")
        precondition(hysteresisDegrees >= 0 && hysteresisDegrees <= 30, "the hysteresis must be 0…30°")
        self.holdSeconds = holdSeconds
        self.hysteresisDegrees = hysteresisDegrees
        holdNanoseconds = Int64((holdSeconds * 1e9).rounded())
        func sineSquared(_ degrees: Double) -> Double {
            let s = Glibc.sin(degrees * .pi / 180)
            return s * s
        }
        edgeEnterSquared = sineSquared(OrientationTracker.edgeDegrees + hysteresisDegrees)
        edgeOtherSquared = sineSquared(OrientationTracker.edgeDegrees - hysteresisDegrees)
        faceEnterSquared = sineSquared(OrientationTracker.faceDegrees + hysteresisDegrees)
        faceStaySquared = sineSquared(OrientationTracker.faceDegrees - hysteresisDegrees)
    }

    /// Takes one sample and returns the decision in force.
    ///
    /// - Parameters:
    ///   - gravity: the pipeline's gravity vector in the device frame (any
    ///     units: only its direction counts; reads (0, −g, 0) upright).
    ///   - timestampNanoseconds: the sample's own timestamp.
    ///   - shaking: the sample is shaken: it decides nothing.
    @inlinable @inline(__always)
    public mutating func update(_ gravity: SIMD3<Double>, timestampNanoseconds: Int64,
                                shaking: Bool) -> Decision {
        if !started || timestampNanoseconds < lastNanoseconds {
            started = true
            candidateSinceNanoseconds = timestampNanoseconds
        }
        lastNanoseconds = timestampNanoseconds
        if shaking {
            candidate = settled
            candidateSinceNanoseconds = timestampNanoseconds
            return settled
        }
        let next = classify(gravity, from: candidate)
        if next != candidate {
            candidate = next
            candidateSinceNanoseconds = timestampNanoseconds
        }
        if candidate != settled && (settled.isUndefined
            || Nanoseconds.difference(timestampNanoseconds, candidateSinceNanoseconds) >= holdNanoseconds) {
            settled = candidate
        }
        return settled
    }

    /// The candidate after `current` for the direction of `v` (hysteresis
    /// only; no time).
    @inlinable @inline(__always)
    public func classify(_ v: SIMD3<Double>, from current: Decision) -> Decision {
        let xx = v.x * v.x, yy = v.y * v.y, zz = v.z * v.z
        let norm = xx + yy + zz
        guard norm > 0 && norm.isFinite else { return current }
        var next = current
        let face: Facing? = v.z > 0 ? .up : (v.z < 0 ? .down : nil)
        if let facing = current.facing, facing == face, zz >= faceStaySquared * norm {
            next.facing = facing
        } else if zz >= faceEnterSquared * norm {
            next.facing = face
        } else {
            next.facing = nil
        }
        if xx >= edgeEnterSquared * norm && yy <= edgeOtherSquared * norm {
            next.edge = v.x > 0 ? .leftUp : .rightUp
        } else if yy >= edgeEnterSquared * norm && xx <= edgeOtherSquared * norm {
            next.edge = v.y > 0 ? .bottomUp : .normal
        }
        return next
    }
}
