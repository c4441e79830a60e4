import Motion
import Wording

/// One line of `tiltd list`, as text or JSON.
public struct DeviceListEntry: Encodable, Sendable, Equatable {
    public var id: String
    public var name: String?
    public var label: String?
    public var location: String?
    public var chosen: Bool
    public var uri: String
    /// m/s² per raw count, x, y, z.
    public var scale: [Double]
    public var scaleSource: String
    /// Raw counts, x, y, z.
    public var offset: [Double]
    public var offsetSource: String
    public var mountMatrix: String
    public var mountMatrixSource: String
    public var samplingFrequencyHertz: Double?
    public var samplingFrequencyAvailable: String?
    /// The rate `tiltd run` would use without `Setting.rate`, in Hz.
    public var defaultRateHertz: Double
    public var buffered: Bool
    public var timestamp: Bool
    public var currentTrigger: String?
    public var trigger: String?
    public var timestampClock: String?
    /// The paired gyroscope, if any.
    public var gyro: DeviceListGyroEntry?
    /// Why a paired gyroscope cannot be used, if so.
    public var gyroProblem: String?
    /// The hub's fused rotation (`Setting.source` `rotation`), if any.
    public var rotation: Rotation?
    /// The default `Setting.latency` in ms and the least scans a buffered
    /// capture reads per wake-up with it at `defaultRateHertz`, the kernel's
    /// watermark (nil when unbuffered).
    public var latencyMilliseconds: Double?
    public var scansPerWake: Int?

    public struct Rotation: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String?
        public var scale: Double
        public var scaleSource: String
        enum CodingKeys: String, CodingKey {
            case id, name, scale
            case scaleSource = "scale_source"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, label, location, chosen, uri, scale, offset, buffered, timestamp, trigger
        case scaleSource = "scale_source", offsetSource = "offset_source"
        case mountMatrix = "mount_matrix", mountMatrixSource = "mount_matrix_source"
        case samplingFrequencyHertz = "sampling_frequency_hz"
        case samplingFrequencyAvailable = "sampling_frequency_available"
        case defaultRateHertz = "default_rate_hz"
        case currentTrigger = "current_trigger", timestampClock = "timestamp_clock"
        case gyro, gyroProblem = "gyro_problem", rotation
        case latencyMilliseconds = "latency_ms", scansPerWake = "scans_per_wake"
    }

    public init(info: AccelerometerInfo, chosen: Bool) {
        id = info.id
        name = info.name
        label = info.label
        location = info.location
        self.chosen = chosen
        uri = info.uri
        scale = [info.scale.x, info.scale.y, info.scale.z]
        scaleSource = info.scaleSource
        offset = [info.offset.x, info.offset.y, info.offset.z]
        offsetSource = info.offsetSource
        mountMatrix = info.mountMatrix.iioText
        mountMatrixSource = info.mountMatrixSource.rawValue
        samplingFrequencyHertz = info.samplingFrequencyHertz
        samplingFrequencyAvailable = info.availableFrequenciesText
        defaultRateHertz = info.defaultPollingRateHertz
        buffered = info.bufferCapable
        timestamp = info.hasTimestamp
        currentTrigger = info.currentTrigger
        trigger = info.currentTrigger ?? info.triggerCandidate
        timestampClock = info.timestampClock
        gyro = info.gyro.map(DeviceListGyroEntry.init)
        gyroProblem = info.gyroProblem
        rotation = info.rotation.map { Rotation(id: $0.id, name: $0.name, scale: $0.scale, scaleSource: $0.scaleSource) }
        if info.bufferCapable {
            latencyMilliseconds = CaptureLatency.defaultMilliseconds
            scansPerWake = CaptureLatency.scansPerWake(rateHertz: defaultRateHertz,
                                                       budgetSeconds: CaptureLatency.defaultMilliseconds / 1000)
        }
    }

    /// The human-readable block for this device.
    public func text() -> String {
        var lines = ["\(chosen ? "*" : " ") \(id)  \(name ?? "(no name)")"
                     + (label.map { "  label \($0)" } ?? "") + (location.map { "  location \($0)" } ?? "")]
        func numbers(_ values: [Double]) -> String { values.map(CaptureRate.attributeText).joined(separator: " ") }
        lines.append("    scale         \(numbers(scale)) m/s² per count (\(scaleSource))")
        lines.append("    offset        \(numbers(offset)) counts (\(offsetSource))")
        let matrixSource = mountMatrixSource == MountMatrixSource.identity.rawValue
            ? "none found, so the identity" : "from \(mountMatrixSource)"
        lines.append("    mount matrix  \(mountMatrix) (\(matrixSource))")
        var rate = samplingFrequencyHertz.map { "\(CaptureRate.attributeText($0)) Hz" } ?? "no sampling_frequency"
        if let samplingFrequencyAvailable { rate += ", available \(samplingFrequencyAvailable)" }
        lines.append("    sampling      \(rate); tiltd uses \(CaptureRate.attributeText(defaultRateHertz)) Hz")
        let triggerText: String
        if !buffered {
            triggerText = "no (polled only)"
        } else if let currentTrigger {
            triggerText = "yes, trigger \(currentTrigger)"
        } else if let trigger {
            triggerText = "yes, trigger \(trigger) (set when capturing)"
        } else {
            triggerText = "yes, no trigger (hardware FIFO)"
        }
        lines.append("    buffer        \(triggerText)" + (buffered ? (timestamp ? ", timestamps" : ", no timestamps") : ""))
        if let timestampClock { lines.append("    clock         \(timestampClock)") }
        if let latencyMilliseconds, scansPerWake != nil {
            let scans = CaptureLatency.scansPerWakeText(rateHertz: defaultRateHertz,
                                                        budgetSeconds: latencyMilliseconds / 1000)
            let rest = CaptureLatency.scansPerWakeText(rateHertz: defaultRateHertz,
                                                       budgetSeconds: CaptureLatency.restBudgetSeconds)
            let settled = CaptureLatency.scansPerWakeText(rateHertz: defaultRateHertz,
                                                          budgetSeconds: CaptureLatency.settledBudgetSeconds)
            lines.append("    latency       \(CaptureRate.attributeText(latencyMilliseconds)) ms (\(Setting.latency)): "
                         + "\(scans) a wake-up at \(CaptureRate.attributeText(defaultRateHertz)) Hz, "
                         + "\(rest) at rest, \(settled) after "
                         + "\(CaptureRate.attributeText(CaptureLatency.settledAfterSeconds)) s still")
        }
        if let gyro {
            lines += gyro.lines()
        } else if let gyroProblem {
            lines.append("    gyroscope     unusable: \(gyroProblem)")
        } else {
            lines.append("    gyroscope     none paired")
        }
        if let rotation {
            lines.append("    rotation      \(rotation.id)  \(rotation.name ?? "(no name)")  fused quaternion, scale "
                         + "\(CaptureRate.attributeText(rotation.scale)) (\(rotation.scaleSource)); \(Setting.source) rotation")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
