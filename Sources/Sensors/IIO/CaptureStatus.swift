import Motion
/// The device a capture reads and how.
public struct CaptureStatus: Sendable, Equatable {
    public var info: AccelerometerInfo
    /// `.buffer` or `.poll` (never `.auto`).
    public var mode: CaptureMode
    /// The sampling rate in use, in Hz.
    public var rateHertz: Double
    /// The clock of the samples' timestamps: "monotonic" (polled, or a
    /// device set to it), else the device's `current_timestamp_clock`.
    public var clock: String
    /// The evdev motion sensor read, when the source is a game pad (then
    /// `info` describes it as an accelerometer and `rateHertz` is nominal).
    public var pad: MotionPadInfo?

    /// The gyroscope read with the accelerometer, nil without one (or with `Setting.noGyro`).
    public var gyro: GyroInfo?
    /// The hub's fused rotation the angles come from (`Setting.source` `rotation`),
    /// with its checked convention; nil when they come from the accelerometer.
    public var rotation: RotationInfo?

    /// True when the samples carry a rotation rate: a paired gyroscope, or a
    /// game pad's own (the pipeline fuses it unless `Setting.noGyro`).
    public var readsGyroscope: Bool { gyro != nil || !(pad?.gyroscopeAxes.isEmpty ?? true) }

    public init(info: AccelerometerInfo, mode: CaptureMode, rateHertz: Double, clock: String,
                pad: MotionPadInfo? = nil, gyro: GyroInfo? = nil, rotation: RotationInfo? = nil) {
        self.pad = pad
        self.info = info
        self.mode = mode
        self.rateHertz = rateHertz
        self.clock = clock
        self.gyro = gyro
        self.rotation = rotation
    }
}
