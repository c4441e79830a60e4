import Motion
/// Chooses the accelerometer to read (SPEC §4): the one named by `Setting.device`,
/// else one in the display, else any that is not in the base.
public struct AccelerometerSelector: Sendable, Equatable {
    /// An id ("iio:device0"), driver name ("accel_3d"), label
    /// ("accel-display") or location ("display"); nil to choose automatically.
    public var query: String?

    public init(query: String? = nil) {
        self.query = query
    }

    /// The index of the chosen device in `candidates`.
    ///
    /// - Parameters:
    ///   - candidates: the accelerometers found, in context order.
    ///   - uri: the context's URI, for messages.
    ///   - deviceCount: how many IIO devices the context has, for messages.
    /// - Throws: `AccelerometerSelectionError` saying why none fits.
    public func choose(from candidates: [AccelerometerInfo], uri: String,
                       deviceCount: Int) throws -> Int {
        guard !candidates.isEmpty else {
            throw AccelerometerSelectionError.noAccelerometer(uri: uri, deviceCount: deviceCount)
        }
        if let query {
            let matches = candidates.indices.filter { index in
                let info = candidates[index]
                return info.id == query || info.name == query || info.label == query || info.location == query
            }
            guard !matches.isEmpty else {
                throw AccelerometerSelectionError.noMatch(
                    query: query, uri: uri, available: candidates.map(Self.summary))
            }
            // An exact id is unambiguous; otherwise prefer the display among the matches.
            return matches.first { candidates[$0].id == query }
                ?? matches.first { candidates[$0].location == "display" } ?? matches[0]
        }
        if let display = candidates.indices.first(where: { candidates[$0].location == "display" }) {
            return display
        }
        if let other = candidates.indices.first(where: { candidates[$0].location != "base" }) {
            return other
        }
        throw AccelerometerSelectionError.onlyBase(uri: uri, ids: candidates.map(\.id))
    }

    private static func summary(_ info: AccelerometerInfo) -> String {
        var parts = [info.id]
        if let name = info.name { parts.append(name) }
        if let label = info.label { parts.append(label) }
        if let location = info.udevLocation { parts.append("ACCEL_LOCATION=\(location)") }
        return parts.joined(separator: " ")
    }
}
