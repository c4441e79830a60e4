import Devices
import Knob
import Motion

/// One sample as the hub publishes it: the reading, and the state when the
/// change gate let one through.
public struct PublishedSample: Sendable {
    /// The sample (timestamp in ns, acceleration in m/s², rotation rate in rad/s).
    public var reading: Reading
    /// The gated state, encoded by the hub when a consumer writes records;
    /// nil when the gate dropped this sample.
    public var encoded: EncodedState?
    /// The gated state; nil when the gate dropped this sample.
    public var state: KnobState? { encoded?.state }
    /// The fused device motion, when a gyroscope is fused and a state was made.
    public var motion: DeviceMotion? { state?.tilt.motion }
    /// The rotation rate with the fusion's gyro bias removed, rad/s, on every
    /// fused sample, gated or not (`TiltPipeline.correctedRotationRate`).
    public var correctedRotationRate: SIMD3<Double>?

    public init(reading: Reading, state: KnobState?, correctedRotationRate: SIMD3<Double>? = nil) {
        self.reading = reading
        self.encoded = state.map { EncodedState(unencoded: $0) }
        self.correctedRotationRate = correctedRotationRate
    }
}

/// The one fan-out: the producer (the capture thread, a replay task) hands
/// every sample to the hub once, with `publish`, and capture-status changes
/// with `captureStatus`; the hub passes each to every consumer in order.
///
/// A state is encoded here, once (`EncodedState`), when any consumer writes
/// records; every consumer shares those bytes.
///
/// Consumers run on the producer's thread and never block it: each keeps
/// its own mailbox and limits (stdout's `OutputMailbox` thread, the socket's
/// non-blocking sends coalescing for full clients, the bus and the web page
/// keeping only the newest value in a `NewestValue`, DSU's non-blocking
/// datagrams).
public final class StateHub: StateSink {
    private let consumers: [any StateSink]

    public let wantsEverySample: Bool
    public let usesRecords: Bool

    public init(_ consumers: [any StateSink]) {
        self.consumers = consumers
        wantsEverySample = consumers.contains { $0.wantsEverySample }
        usesRecords = consumers.contains { $0.usesRecords }
    }

    /// Hands one sample to every consumer.
    public func publish(_ sample: PublishedSample) {
        var sample = sample
        if usesRecords, let encoded = sample.encoded { sample.encoded = encoded.encodedNow }
        for consumer in consumers { consumer.take(sample) }
    }

    public func take(_ sample: PublishedSample) { publish(sample) }

    public func emit(_ state: EncodedState) {
        let state = usesRecords ? state.encodedNow : state
        for consumer in consumers { consumer.emit(state) }
    }

    public func flush() {
        for consumer in consumers { consumer.flush() }
    }

    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {
        for consumer in consumers { consumer.captureStatus(status, fusingGyroscope: fusingGyroscope) }
    }

    public func deviceStopped(_ stop: DeviceStop) {
        for consumer in consumers { consumer.deviceStopped(stop) }
    }

    public func endBatch() {
        for consumer in consumers { consumer.endBatch() }
    }
}
