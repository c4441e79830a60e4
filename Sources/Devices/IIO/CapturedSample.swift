import Motion
/// One sample as captured: the raw counts and the reading in m/s².
public struct CapturedSample: Sendable, Equatable {
    /// Timestamp and acceleration after offset, scale and mount matrix.
    public var reading: Reading
    /// The raw counts of x, y, z as the device gave them.
    public var raw: SIMD3<Double>
    /// The gyroscope's raw counts, when one was read with this sample.
    public var rawRotation: SIMD3<Double>?

    public init(reading: Reading, raw: SIMD3<Double>, rawRotation: SIMD3<Double>? = nil) {
        self.reading = reading
        self.raw = raw
        self.rawRotation = rawRotation
    }
}
