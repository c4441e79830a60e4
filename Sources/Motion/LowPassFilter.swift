import Glibc

/// A one-pole low-pass filter on the acceleration vector.
///
/// Each step moves the output toward the input by
/// `alpha = 1 − exp(−Δt / τ)`, τ = 1 / (2π·cutoff), with Δt the sample's real
/// interval. Because the exponential composes (e^−a·e^−b = e^−(a+b)), a
/// constant input settles identically whether it arrives at regular or
/// irregular intervals: after t seconds the step response is 1 − e^(−t/τ).
///
/// - The first sample initialises the output (no ramp from zero).
/// - A gap longer than `resetGapNanoseconds` (20 τ, at least 0.5 s) restarts
///   the filter at the new sample; `lastEvent` says `.reset`.
/// - A timestamp earlier than the previous one is never used as a negative
///   Δt: the filter restarts at that sample and `lastEvent` says
///   `.backwards`, so the caller can report it.
///
/// A `weight` in [0, 1] scales alpha: the pipeline gives samples whose
/// magnitude is far from gravity little weight (see `GravityEstimate`).
/// Filtering the vector rather than the angles keeps it free of the angles'
/// wrap-arounds (SPEC §3).
public struct LowPassFilter: Sendable {
    /// What the last `update` did.
    public enum Event: UInt8, Sendable {
        /// An ordinary step.
        case step
        /// The first sample: the output was set to it.
        case initialised
        /// The gap since the previous sample was too long: restarted here.
        case reset
        /// The timestamp went backwards: restarted here.
        case backwards
    }

    /// The cutoff frequency in Hz.
    public let cutoffHertz: Double
    /// τ = 1 / (2π·cutoff), in seconds.
    public let timeConstantSeconds: Double
    /// Gaps longer than this (ns) restart the filter.
    public let resetGapNanoseconds: Int64

    /// The filtered vector (same units as the input).
    @inlinable public var value: SIMD3<Double> { output }
    /// What the last `update` did.
    @inlinable public var lastEvent: Event { event }
    /// The last interval used, in seconds (0 after a restart).
    @inlinable public var lastIntervalSeconds: Double { interval }
    /// The timestamp of the last sample in ns.
    @inlinable public var lastTimestampNanoseconds: Int64 { lastTimestamp }

    @usableFromInline var output = SIMD3<Double>()
    @usableFromInline var event = Event.step
    @usableFromInline var interval = 0.0
    @usableFromInline var lastTimestamp: Int64 = 0
    @usableFromInline var initialised = false
    @usableFromInline var coefficient = OnePoleCoefficient()
    @usableFromInline let inverseTimeConstantPerNanosecond: Double

    /// - Parameter cutoffHertz: cutoff in Hz (> 0, finite); 5 Hz by default.
    public init(cutoffHertz: Double = 5) {
        precondition(cutoffHertz > 0 && cutoffHertz.isFinite, "cutoff must be positive")
        self.cutoffHertz = cutoffHertz
        timeConstantSeconds = 1 / (2 * Double.pi * cutoffHertz)
        inverseTimeConstantPerNanosecond = 1e-9 / timeConstantSeconds
        resetGapNanoseconds = Int64(max(20 * timeConstantSeconds, 0.5) * 1e9)
    }

    /// The exact alpha for an interval of `nanoseconds` (no weighting).
    public func alpha(intervalNanoseconds nanoseconds: Int64) -> Double {
        -Glibc.expm1(-Double(nanoseconds) * inverseTimeConstantPerNanosecond)
    }

    /// The interval a sample at `timestampNanoseconds` would be filtered
    /// with, in seconds: 0 when it would (re)start the filter.
    @inlinable @inline(__always)
    public func intervalSeconds(to timestampNanoseconds: Int64) -> Double {
        let delta = Nanoseconds.difference(timestampNanoseconds, lastTimestamp)
        return initialised && delta >= 0 && delta <= resetGapNanoseconds ? Double(delta) * 1e-9 : 0
    }

    /// Feeds one sample and returns the filtered vector.
    ///
    /// - Parameters:
    ///   - input: the sample.
    ///   - timestampNanoseconds: its timestamp.
    ///   - weight: how much to trust it, in [0, 1] (1: fully).
    @inlinable @inline(__always)
    @discardableResult
    public mutating func update(_ input: SIMD3<Double>, timestampNanoseconds: Int64,
                                weight: Double = 1) -> SIMD3<Double> {
        guard initialised else {
            restart(input, timestampNanoseconds: timestampNanoseconds, event: .initialised)
            return output
        }
        let delta = Nanoseconds.difference(timestampNanoseconds, lastTimestamp)
        if delta < 0 {
            restart(input, timestampNanoseconds: timestampNanoseconds, event: .backwards)
            return output
        }
        if delta > resetGapNanoseconds {
            restart(input, timestampNanoseconds: timestampNanoseconds, event: .reset)
            return output
        }
        let alpha = coefficient.alpha(x: Double(delta) * inverseTimeConstantPerNanosecond) * weight
        output += alpha * (input - output)
        lastTimestamp = timestampNanoseconds
        interval = Double(delta) * 1e-9
        event = .step
        return output
    }

    /// The time bookkeeping of `update` without the filter step, for a
    /// caller that computes the output itself (the gyro fusion) and hands it
    /// back with `replaceOutput`: gaps and backwards timestamps restart at
    /// `input` and are reported in `lastEvent` exactly as `update` does.
    @inlinable @inline(__always)
    public mutating func advance(_ input: SIMD3<Double>, timestampNanoseconds: Int64) {
        let delta = timestampNanoseconds &- lastTimestamp
        guard initialised else {
            restart(input, timestampNanoseconds: timestampNanoseconds, event: .initialised)
            return
        }
        if delta < 0 || delta > resetGapNanoseconds {
            restart(input, timestampNanoseconds: timestampNanoseconds, event: delta < 0 ? .backwards : .reset)
            return
        }
        lastTimestamp = timestampNanoseconds
        interval = Double(delta) * 1e-9
        event = .step
    }

    /// Sets the output (after `advance`), so that a later `update` goes on from it.
    @inlinable @inline(__always)
    public mutating func replaceOutput(_ value: SIMD3<Double>) {
        output = value
    }

    /// Forgets all state: the next sample initialises the filter.
    public mutating func reset() {
        initialised = false
    }

    @usableFromInline
    mutating func restart(_ input: SIMD3<Double>, timestampNanoseconds: Int64, event: Event) {
        output = input
        lastTimestamp = timestampNanoseconds
        initialised = true
        interval = 0
        self.event = event
    }
}
