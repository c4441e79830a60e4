import Motion

/// Finds the evdev motion sensors: input devices udev marks with
/// `ID_INPUT_ACCELEROMETER=1` (set from INPUT_PROP_ACCELEROMETER by udev's
/// input_id builtin), each confirmed by opening it with libevdev.
///
/// Only those nodes are opened: never a keyboard or any other input device,
/// which the udev rule does not let tiltd read anyway.
public struct MotionPadDiscovery: Sendable {
    /// Replaces every pad's matrix (`--mount-matrix`).
    public var matrixOverride: MountMatrix?

    public init(matrixOverride: MountMatrix? = nil) {
        self.matrixOverride = matrixOverride
    }

    /// The event nodes udev lists as motion sensors, sorted by number
    /// (event2 before event10), with their udev ACCEL_MOUNT_MATRIX if any.
    public static func candidateNodes() -> [(node: String, mountMatrix: String?)] {
        LibIIO.udevInputAccelerometers()
            .filter { $0.node.hasPrefix("/dev/input/event") }
            .sorted { number($0.node) < number($1.node) }
            .map { ($0.node, $0.properties["ACCEL_MOUNT_MATRIX"]) }
    }

    /// Describes every motion sensor.
    ///
    /// - Parameter skipped: receives why a listed node could not be described
    ///   (EACCES without the udev rule, a node that vanished).
    /// - Returns: the pads in node order.
    public func pads(skipped: inout [any Error]) -> [MotionPadInfo] {
        var found: [MotionPadInfo] = []
        for candidate in Self.candidateNodes() {
            do {
                found.append(try open(candidate.node, udevMatrix: candidate.mountMatrix).info)
            } catch {
                skipped.append(error)
            }
        }
        return found
    }

    /// Opens one node with the matrix that applies: `--mount-matrix`, else
    /// udev's ACCEL_MOUNT_MATRIX (hwdb), else the family's.
    func open(_ node: String, udevMatrix: String?) throws -> MotionPad {
        if let matrixOverride {
            return try MotionPad(node: node, matrix: (matrixOverride, "command line"))
        }
        if let udevMatrix {
            let matrix = try MountMatrix(parsing: udevMatrix)
            return try MotionPad(node: node, matrix: (matrix, "udev ACCEL_MOUNT_MATRIX"))
        }
        return try MotionPad(node: node)
    }

    private static func number(_ node: String) -> Int {
        Int(node.dropFirst("/dev/input/event".count)) ?? Int.max
    }
}
