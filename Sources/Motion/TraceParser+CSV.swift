/// Plain CSV recordings: `time_s,accel_x,accel_y,accel_z` and optionally
/// `gyro_x,gyro_y,gyro_z` after them (docs/trace-format.md, "Plain CSV").
extension TraceParser {
    mutating func parseCSV(units: CSVUnits, gyroUnits: GyroUnits, hasGyro: Bool) throws -> Recording {
        let factor = units.metresPerSecondSquared
        let gyroFactor = gyroUnits.radiansPerSecond
        let expected = hasGyro ? "seven numbers time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z"
            : "four numbers time_s,accel_x,accel_y,accel_z"
        var readings: [Reading] = []
        readings.reserveCapacity(count / 32)
        var warnings: [String] = []
        while let line = nextLine() {
            if line.isEmpty || base[line.start] == UInt8(ascii: "#") { continue }
            var i = line.start
            let t = csvField(&i, line.end).flatMap { TraceDecimal.nanoseconds(seconds: base, $0.0, $0.1) }
            let a = csvVector(&i, line.end)
            let w = hasGyro ? csvVector(&i, line.end) : nil
            guard let t, let a, !hasGyro || w != nil else {
                if !line.complete {
                    warnings.append(tornWarning())
                    break
                }
                throw malformed(line, "expected \(expected)")
            }
            readings.append(Reading(timestampNanoseconds: t, acceleration: a * factor,
                                    rotationRate: w.map { $0 * gyroFactor }))
        }
        return Recording(format: .csv, header: nil, readings: readings, warnings: warnings)
    }

    @inline(__always)
    private func csvVector(_ i: inout Int, _ end: Int) -> SIMD3<Double>? {
        guard let x = csvField(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }),
              let y = csvField(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }),
              let z = csvField(&i, end).flatMap({ TraceDecimal.double(base, $0.0, $0.1) }) else { return nil }
        return SIMD3(x, y, z)
    }

    /// The next comma-separated field, blanks trimmed; nil past the end.
    @inline(__always)
    private func csvField(_ i: inout Int, _ end: Int) -> (Int, Int)? {
        guard i <= end else { return nil }
        var start = i
        var stop = i
        while stop < end, base[stop] != UInt8(ascii: ",") { stop += 1 }
        i = stop + 1
        var last = stop
        while start < last, isBlank(base[start]) { start += 1 }
        while last > start, isBlank(base[last - 1]) { last -= 1 }
        return (start, last)
    }
}
