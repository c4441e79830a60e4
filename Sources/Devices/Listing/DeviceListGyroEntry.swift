import Motion

/// The gyroscope part of a `tiltd list` entry, as text or JSON.
public struct DeviceListGyroEntry: Encodable, Sendable, Equatable {
    public var id: String
    public var name: String?
    /// How it was paired: "same device", "sibling", "same hub", "same location".
    public var pairing: String
    /// rad/s per raw count, x, y, z.
    public var scale: [Double]
    public var scaleSource: String
    public var mountMatrix: String
    public var mountMatrixSource: String
    public var samplingFrequencyHertz: Double?
    public var buffered: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, pairing, scale, buffered
        case scaleSource = "scale_source"
        case mountMatrix = "mount_matrix", mountMatrixSource = "mount_matrix_source"
        case samplingFrequencyHertz = "sampling_frequency_hz"
    }

    public init(_ gyro: GyroInfo) {
        id = gyro.id
        name = gyro.name
        pairing = gyro.pairing.rawValue
        scale = [gyro.scale.x, gyro.scale.y, gyro.scale.z]
        scaleSource = gyro.scaleSource
        mountMatrix = gyro.mountMatrix.iioText
        mountMatrixSource = gyro.mountMatrixSource
        samplingFrequencyHertz = gyro.samplingFrequencyHertz
        buffered = gyro.bufferCapable
    }

    /// The lines under the accelerometer's block.
    public func lines() -> [String] {
        let scaleText = scale.map(CaptureRate.attributeText).joined(separator: " ")
        let rate = samplingFrequencyHertz.map { "\(CaptureRate.attributeText($0)) Hz" } ?? "no sampling_frequency"
        return ["    gyroscope     \(id)  \(name ?? "(no name)")  (\(pairing))",
                "      scale       \(scaleText) rad/s per count (\(scaleSource))",
                "      matrix      \(mountMatrix) (\(mountMatrixSource))",
                "      sampling    \(rate); \(buffered ? "buffer" : "polled only")"]
    }
}
