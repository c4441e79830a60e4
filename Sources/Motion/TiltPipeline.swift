/// The whole per-sample path: reading → robust low-pass filter (and, for a
/// reading with a gyroscope, `AttitudeFusion`) → discrete orientation
/// (`OrientationTracker`) → screen mapping → neutral pose → continuous
/// roll/pitch → change gate → tilt state.
///
/// A value type with no allocation, existential or Foundation call on the
/// per-sample path (diagnostics, which are rare, are the exception), so a
/// release build processes tens of millions of samples per second on one
/// core. The orientation tracker sees the filtered (or fused) vector in the
/// device frame, as iio-sensor-proxy sees the device; angles are in the
/// screen's frame.
public struct TiltPipeline: Sendable {
    /// Diagnostics kept at most; later ones are counted in `droppedDiagnostics`.
    public static let diagnosticCapacity = 1000

    /// The configuration this pipeline was built with.
    public let configuration: PipelineConfiguration
    /// True when diagnostics wait in `takeDiagnostics()`.
    @inlinable public var hasDiagnostics: Bool { !pending.isEmpty }
    /// Diagnostics dropped because nobody took them in time.
    public private(set) var droppedDiagnostics = 0
    /// The estimate of the device's gravity magnitude (input units).
    public var gravityMagnitude: Double { gravity.magnitude }
    /// The neutral pose stage (its rest pose once settled).
    public var neutralPose: NeutralPose { neutral }

    @usableFromInline var filter: LowPassFilter
    @usableFromInline var gravity: GravityEstimate
    @usableFromInline var fusion: AttitudeFusion
    /// True while the fusion filter tracks the stream (reset by a gyro-less reading or a restart).
    @usableFromInline var fusing = false
    /// How long the fusion has gone on without gyro readings (seconds).
    @usableFromInline var missingRateSeconds = 0.0
    /// The last gyro reading fused, for bridging a short gap after it.
    @usableFromInline var lastRate = SIMD3<Double>()
    /// The box of the last state's device motion (`deviceMotion`).
    @usableFromInline var motionBox: DeviceMotionBox?
    /// The rate (as measured) the last sample's device motion comes from.
    @usableFromInline var sampleRate: SIMD3<Double>?
    @usableFromInline let gyroEnabled: Bool
    @usableFromInline var orientation = OrientationTracker()
    @usableFromInline var neutral: NeutralPose
    @usableFromInline var solver = AttitudeSolver()
    @usableFromInline var gate: ChangeGate
    @usableFromInline let gateEnabled: Bool
    @usableFromInline let followsClassifier: Bool
    @usableFromInline let fixedScreen: ScreenOrientation
    @usableFromInline var pending: [PipelineDiagnostic] = []

    /// - Parameter configuration: validated settings (cutoff > 0, threshold ≥ 0).
    public init(configuration: PipelineConfiguration = PipelineConfiguration()) {
        self.configuration = configuration
        filter = LowPassFilter(cutoffHertz: configuration.cutoffHertz)
        fusion = AttitudeFusion(settings: configuration.fusion)
        gravity = GravityEstimate(band: configuration.shakeBand)
        gyroEnabled = configuration.gyroEnabled
        neutral = NeutralPose(setting: configuration.neutral)
        gate = ChangeGate(threshold: configuration.threshold)
        gateEnabled = configuration.gateEnabled
        switch configuration.screenOrientation {
        case .auto:
            followsClassifier = true
            fixedScreen = .normal
        case .fixed(let orientation):
            followsClassifier = false
            fixedScreen = orientation
        }
    }

    /// Processes one reading.
    ///
    /// - Returns: the state, or nil when the gate drops it (or the reading is
    ///   not finite). The first state always passes; with the gate disabled
    ///   every finite reading gives a state.
    @inlinable
    public mutating func process(_ reading: Reading) -> TiltState? {
        let acceleration = reading.acceleration
        let timestamp = reading.timestampNanoseconds
        let squared = (acceleration * acceleration).sum()
        guard squared.isFinite else {
            note(.invalidReading(atNanoseconds: timestamp))
            sampleRate = nil
            return nil
        }
        let previousTimestamp = filter.lastTimestampNanoseconds
        let weight = gravity.weigh(squaredMagnitude: squared,
                                   elapsedSeconds: filter.intervalSeconds(to: timestamp))
        var filtered: SIMD3<Double>
        // Which rate the device motion comes from (none: accelerometer only).
        // The motion itself is made only when the state is.
        var motionRate: SIMD3<Double>?
        if gyroEnabled, let rate = reading.rotationRate, (rate * rate).sum().isFinite {
            // The low-pass filter keeps the time (gaps, backwards steps) and
            // carries the fused vector, so it goes on from there if the gyro
            // goes away; the fusion restarts wherever the filter restarts.
            filter.advance(acceleration, timestampNanoseconds: timestamp)
            if filter.lastEvent != .step {
                noteFilterEvent(previousNanoseconds: previousTimestamp, nanoseconds: timestamp)
            }
            if fusing && filter.lastEvent == .step {
                if missingRateSeconds > 0 && missingRateSeconds <= configuration.fusion.bridgeSeconds {
                    fusion.turn(rotationRate: 0.5 * (lastRate + rate), seconds: missingRateSeconds)
                }
                filtered = fusion.update(acceleration: acceleration, rotationRate: rate,
                                         intervalSeconds: filter.lastIntervalSeconds)
                    * gravity.magnitude
                filter.replaceOutput(filtered)
            } else {
                filtered = filter.value
                fusion.restart(acceleration: filtered)
                fusing = true
            }
            motionRate = rate
            missingRateSeconds = 0
            lastRate = rate
        } else if fusing && reading.rotationRate == nil && missingRateSeconds
                    + filter.intervalSeconds(to: timestamp) <= configuration.fusion.bridgeSeconds {
            // A sample the gyro did not cover (lagging, stalled): corrected
            // from the accelerometer alone with the fusion's state kept; the
            // gap gets its turn when the next rate arrives. A longer gap
            // goes on below, filtering the accelerometer alone.
            filter.advance(acceleration, timestampNanoseconds: timestamp)
            if filter.lastEvent == .step {
                missingRateSeconds += filter.lastIntervalSeconds
                filtered = fusion.correct(acceleration: acceleration, intervalSeconds: filter.lastIntervalSeconds)
                    * gravity.magnitude
                filter.replaceOutput(filtered)
                motionRate = lastRate
            } else {
                noteFilterEvent(previousNanoseconds: previousTimestamp, nanoseconds: timestamp)
                filtered = filter.value
                fusing = false
            }
        } else {
            filtered = filter.update(acceleration, timestampNanoseconds: timestamp, weight: weight)
            if filter.lastEvent != .step {
                noteFilterEvent(previousNanoseconds: previousTimestamp, nanoseconds: timestamp)
            }
            fusing = false
        }
        sampleRate = motionRate
        let decision = orientation.update(filtered, timestampNanoseconds: timestamp, shaking: weight < 1)
        let screen = followsClassifier ? (decision.edge ?? .normal) : fixedScreen
        let mapped = neutral.apply(ScreenMapping.map(filtered, to: screen),
                                   timestampNanoseconds: timestamp)
        let angles = solver.solve(mapped)
        if gateEnabled && !gate.accept(roll: angles.roll, pitch: angles.pitch) { return nil }
        var motion: DeviceMotionBox?
        if let motionRate { motion = deviceMotion(acceleration: acceleration, rate: motionRate) }
        return TiltState(timestampNanoseconds: timestamp, roll: angles.roll, pitch: angles.pitch,
                         orientation: decision.edge, facing: decision.facing, motionBox: motion)
    }

    /// The fusion's attitude and motion for a sample (`rate` as measured),
    /// boxed for the state: in the box of the previous state when nobody
    /// holds that any more, so a consumer that drops each state costs no
    /// allocation.
    @usableFromInline @inline(never)
    mutating func deviceMotion(acceleration: SIMD3<Double>, rate: SIMD3<Double>) -> DeviceMotionBox {
        let up = fusion.direction
        let motion = DeviceMotion(attitude: fusion.quaternion, gravity: -up,
                                  userAcceleration: acceleration * (1 / gravity.magnitude) - up,
                                  rotationRate: rate - fusion.bias, isResting: fusion.isResting,
                                  gyroBias: fusion.bias)
        if isKnownUniquelyReferenced(&motionBox), let box = motionBox {
            box.motion = motion
            return box
        }
        let box = DeviceMotionBox(motion)
        motionBox = box
        return box
    }

    /// The last sample's rotation rate with the fusion's bias removed, rad/s
    /// (its `DeviceMotion.rotationRate`), gated or not; nil when no gyroscope
    /// was fused into it. Builds no motion: for consumers of every sample (DSU).
    public var correctedRotationRate: SIMD3<Double>? { sampleRate.map { $0 - fusion.bias } }

    /// Returns and forgets the diagnostics noticed since the last call.
    public mutating func takeDiagnostics() -> [PipelineDiagnostic] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    @usableFromInline
    mutating func noteFilterEvent(previousNanoseconds: Int64, nanoseconds: Int64) {
        switch filter.lastEvent {
        case .step, .initialised:
            break
        case .reset:
            note(.filterReset(gapNanoseconds: Nanoseconds.difference(nanoseconds, previousNanoseconds), atNanoseconds: nanoseconds))
        case .backwards:
            note(.backwardsTimestamp(previousNanoseconds: previousNanoseconds, nanoseconds: nanoseconds))
        }
    }

    @usableFromInline
    mutating func note(_ diagnostic: PipelineDiagnostic) {
        if pending.count < TiltPipeline.diagnosticCapacity {
            pending.append(diagnostic)
        } else {
            droppedDiagnostics += 1
        }
    }
}
