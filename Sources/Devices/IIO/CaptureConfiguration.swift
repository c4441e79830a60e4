import Motion
/// What to capture from and how; the command line's device options.
public struct CaptureConfiguration: Sendable, Equatable {
    /// IIO (libiio, the fields below) or an evdev motion sensor (`device`,
    /// `mountMatrix` and the retry times apply).
    public var source: CaptureSource
    /// libiio context URI: `local:`, `ip:HOST[:PORT]`, `usb:…`.
    public var uri: String
    /// Which accelerometer (id, name, label or location); nil chooses the display one.
    public var device: String?
    public var mode: CaptureMode
    /// Requested rate in Hz, clamped to what the device offers; nil keeps the
    /// device's own (raised below 10 Hz) or 50 Hz without `sampling_frequency`.
    public var rateHertz: Double?
    /// Replaces the device's mount matrix when set.
    public var mountMatrix: MountMatrix?
    /// How long a new buffer may stay silent before `auto` polls instead, in
    /// seconds (iio-sensor-proxy waits 0.5 s).
    public var bufferSilenceSeconds: Double
    /// First and longest wait between attempts to reopen a lost device, in seconds.
    public var retryInitialSeconds: Double
    public var retryMaximumSeconds: Double
    /// Read the paired gyroscope too (false: `Setting.noGyro`).
    public var gyroEnabled: Bool
    /// The accelerometer (default) or the hub's fused rotation (`Setting.source` `rotation`).
    public var attitude: AttitudeSource
    /// How late a buffered sample may reach a consumer (`Setting.latency`):
    /// the scans read per wake-up follow from it and the rate.
    public var latency: CaptureLatency

    public init(uri: String = "local:", device: String? = nil, mode: CaptureMode = .auto,
                rateHertz: Double? = nil, mountMatrix: MountMatrix? = nil,
                bufferSilenceSeconds: Double = 0.5, retryInitialSeconds: Double = 0.25,
                retryMaximumSeconds: Double = 4, gyroEnabled: Bool = true,
                source: CaptureSource = .iio, attitude: AttitudeSource = .accelerometer,
                latency: CaptureLatency = .perSample) {
        self.uri = uri
        self.device = device
        self.mode = mode
        self.rateHertz = rateHertz
        self.mountMatrix = mountMatrix
        self.bufferSilenceSeconds = bufferSilenceSeconds
        self.retryInitialSeconds = retryInitialSeconds
        self.retryMaximumSeconds = retryMaximumSeconds
        self.gyroEnabled = gyroEnabled
        self.source = source
        self.attitude = attitude
        self.latency = latency
    }
}
