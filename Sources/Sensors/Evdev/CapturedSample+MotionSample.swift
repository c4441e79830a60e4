extension CapturedSample {
    /// The accelerometer part of a pad's sample, for today's accelerometer
    /// pipeline and traces. The gyroscope stays in `MotionSample` (fusion
    /// takes it when readings carry angular velocity).
    public init(motion: MotionSample) {
        self.init(reading: motion.reading, raw: motion.rawAcceleration)
    }
}
