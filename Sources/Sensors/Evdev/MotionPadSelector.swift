/// Chooses the motion sensor to read: the one named by `Setting.device` (its node,
/// or its name: exact, else a case-insensitive part of it), else the first.
public struct MotionPadSelector: Sendable, Equatable {
    public var query: String?

    public init(query: String? = nil) {
        self.query = query
    }

    /// True when `query` names an event node rather than a device.
    public static func isNode(_ query: String) -> Bool {
        query.hasPrefix("/dev/input/")
    }

    /// The index of the chosen pad among `candidates` (udev's list, unopened).
    ///
    /// - Throws: `MotionPadSelectionError` saying why none fits.
    public func choose(from candidates: [MotionPadCandidate]) throws -> Int {
        guard !candidates.isEmpty else { throw MotionPadSelectionError.noMotionSensor }
        guard let query else { return 0 }
        let lowered = query.lowercased()
        if let index = candidates.firstIndex(where: { $0.node == query || $0.name == query })
            ?? candidates.firstIndex(where: { $0.name?.lowercased().contains(lowered) == true }) {
            return index
        }
        throw MotionPadSelectionError.noMatch(query: query, available: candidates.map(\.displayName))
    }
}
