import Motion
/// Where the accelerometer's x, y, z and timestamp sit in one buffer scan.
///
/// IIO ABI: enabled elements appear in order of their scan index, each
/// aligned to its own storage size, and the scan is padded to a multiple of
/// its largest element. Three `le:s16/32` axes plus an `le:s64/64` timestamp
/// make 24-byte scans: x at 0, y at 4, z at 8, 4 bytes of padding, the
/// timestamp at 16.
public struct ScanLayout: Sendable, Equatable {
    /// One enabled element: its scan index and type.
    public struct Element: Sendable, Equatable {
        public var index: Int
        public var type: ScanElementType
        public init(index: Int, type: ScanElementType) {
            self.index = index
            self.type = type
        }
    }

    /// Byte offsets of x, y, z.
    public let axisOffsets: SIMD3<Int>
    /// Types of x, y, z.
    public let axisTypes: [ScanElementType]
    /// Byte offset and type of the timestamp, if enabled.
    public let timestamp: (offset: Int, type: ScanElementType)?
    /// Bytes per scan.
    public let scanBytes: Int
    /// Byte offsets of the gyro's x, y, z when they share the scan.
    public let gyroOffsets: SIMD3<Int>?
    /// Types of the gyro's x, y, z.
    public let gyroTypes: [ScanElementType]

    /// Lays out the enabled elements.
    ///
    /// - Parameters:
    ///   - axes: x, y, z in that order.
    ///   - timestamp: the timestamp channel, if enabled.
    ///   - others: any other enabled elements (they take room, tiltd skips them).
    ///   - gyro: the gyroscope's x, y, z when they are in the same scan (or empty).
    public init(axes: [Element], timestamp: Element?, others: [Element] = [], gyro: [Element] = []) {
        precondition(axes.count == 3, "a scan layout needs exactly x, y and z")
        precondition(gyro.isEmpty || gyro.count == 3, "a gyro in the scan needs exactly x, y and z")
        var all: [(role: Int, element: Element)] = axes.enumerated().map { ($0.offset, $0.element) }
        if let timestamp { all.append((3, timestamp)) }
        all += gyro.enumerated().map { (5 + $0.offset, $0.element) }
        all += others.map { (4, $0) }
        all.sort { $0.element.index < $1.element.index }
        var offset = 0
        var largest = 1
        var offsets = [Int](repeating: 0, count: 8)
        for (role, element) in all {
            let size = element.type.storageBytes
            offset = (offset + size - 1) / size * size
            if role != 4 { offsets[role] = offset }
            offset += size
            largest = max(largest, size)
        }
        scanBytes = (offset + largest - 1) / largest * largest
        axisOffsets = SIMD3(offsets[0], offsets[1], offsets[2])
        axisTypes = axes.map(\.type)
        self.timestamp = timestamp.map { (offsets[3], $0.type) }
        gyroOffsets = gyro.isEmpty ? nil : SIMD3(offsets[5], offsets[6], offsets[7])
        gyroTypes = gyro.map(\.type)
    }

    /// Decodes the gyro's raw x, y, z of the scan at `offset`, nil when the
    /// gyro is not in the scan.
    @inline(__always)
    public func decodeGyro(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> SIMD3<Int64>? {
        guard let gyroOffsets else { return nil }
        return SIMD3(gyroTypes[0].decode(bytes, at: offset + gyroOffsets.x),
                     gyroTypes[1].decode(bytes, at: offset + gyroOffsets.y),
                     gyroTypes[2].decode(bytes, at: offset + gyroOffsets.z))
    }

    /// Decodes the raw axes and the timestamp (nil without one) of the scan
    /// starting at `offset` in `bytes`.
    @inline(__always)
    public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (raw: SIMD3<Int64>, timestamp: Int64?) {
        let raw = SIMD3(axisTypes[0].decode(bytes, at: offset + axisOffsets.x),
                        axisTypes[1].decode(bytes, at: offset + axisOffsets.y),
                        axisTypes[2].decode(bytes, at: offset + axisOffsets.z))
        let time = timestamp.map { $0.type.decode(bytes, at: offset + $0.offset) }
        return (raw, time)
    }

    public static func == (lhs: ScanLayout, rhs: ScanLayout) -> Bool {
        lhs.axisOffsets == rhs.axisOffsets && lhs.axisTypes == rhs.axisTypes
            && lhs.scanBytes == rhs.scanBytes && lhs.timestamp?.offset == rhs.timestamp?.offset
            && lhs.timestamp?.type == rhs.timestamp?.type
            && lhs.gyroOffsets == rhs.gyroOffsets && lhs.gyroTypes == rhs.gyroTypes
    }
}
