import Devices
import Knob
import Motion

/// One sample as the hub publishes it: the reading, and the state when the
/// change gate let one through.
public struct PublishedSample: Sendable {
    /// The sample (timestamp in ns, acceleration in m/s², rotation rate in rad/s).
    public var reading: Reading
    /// The gated state; nil when the gate dropped this sample.
    public var state: KnobState?
    /// The fused device motion, when a gyroscope is fused and a state was made.
    public var motion: DeviceMotion? { state?.tilt.motion }
    /// The rotation rate with the fusion's gyro bias removed, rad/s, on every
    /// fused sample, gated or not (`TiltPipeline.correctedRotationRate`).
    public var correctedRotationRate: SIMD3<Double>?

    public init(reading: Reading, state: KnobState?, correctedRotationRate: SIMD3<Double>? = nil) {
        self.reading = reading
        self.state = state
        self.correctedRotationRate = correctedRotationRate
    }
}

/// The one fan-out: the producer (the capture thread, a replay task) hands
/// every sample to the hub once, with `publish`, and capture-status changes
/// with `captureStatus`; the hub passes each to every consumer in order.
///
/// Consumers run on the producer's thread and must not block it: each does
/// its own coalescing and keeps its own limits (the socket sends without
/// blocking and coalesces for full clients, the bus and the web page keep
/// only the newest value in a `NewestValue` mailbox, stdout writes).
public final class StateHub: StateSink {
    private let consumers: [any StateSink]

    public let wantsEverySample: Bool

    public init(_ consumers: [any StateSink]) {
        self.consumers = consumers
        wantsEverySample = consumers.contains { $0.wantsEverySample }
    }

    /// Hands one sample to every consumer.
    public func publish(_ sample: PublishedSample) {
        for consumer in consumers { consumer.take(sample) }
    }

    public func take(_ sample: PublishedSample) { publish(sample) }

    public func emit(_ state: KnobState) {
        for consumer in consumers { consumer.emit(state) }
    }

    public func flush() {
        for consumer in consumers { consumer.flush() }
    }

    public func captureStatus(_ status: CaptureStatus, fusingGyroscope: Bool) {
        for consumer in consumers { consumer.captureStatus(status, fusingGyroscope: fusingGyroscope) }
    }

    public func endBatch() {
        for consumer in consumers { consumer.endBatch() }
    }
}
