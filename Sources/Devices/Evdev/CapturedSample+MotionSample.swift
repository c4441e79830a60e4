import Motion

extension CapturedSample {
    /// A pad's report as the pipeline takes it: the accelerometer reading
    /// with the gyroscope's rate (rad/s, pad frame) for fusion when the pad has one.
    public init(motion: MotionSample) {
        var reading = motion.reading
        reading.rotationRate = motion.angularVelocityRadiansPerSecond
        self.init(reading: reading, raw: motion.rawAcceleration,
                  rawRotation: motion.angularVelocityRadiansPerSecond == nil ? nil : motion.rawAngularVelocity)
    }
}

extension MotionPadInfo {
    /// The gyroscope as a format-2 trace header describes it; nil without one.
    public var gyroTraceHeader: TraceGyroHeader? {
        guard gyroscopeAxes.count == 3 else { return nil }
        // Same node, same matrix: the pad's gyro shares its accelerometer's frame.
        return TraceGyroHeader(name: name, pairing: "same device", scale: angularVelocityScale,
                               offset: SIMD3(repeating: 0), mountMatrix: mountMatrix,
                               mountMatrixSource: mountMatrixSourceText)
    }
}
