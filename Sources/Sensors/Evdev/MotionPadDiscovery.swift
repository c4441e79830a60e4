import Motion

/// Finds the evdev motion sensors: input devices udev marks with
/// `ID_INPUT_ACCELEROMETER=1` (set from INPUT_PROP_ACCELEROMETER by udev's
/// input_id builtin), each confirmed with libevdev when opened.
///
/// Only those nodes are ever opened: never a keyboard or any other input
/// device, which the udev rule does not let tiltd read anyway. Choosing a
/// pad needs no open at all (node and name come from udev and sysfs).
public struct MotionPadDiscovery: Sendable {
    /// Replaces every pad's matrix (`Setting.mountMatrix`).
    public var matrixOverride: MountMatrix?

    public init(matrixOverride: MountMatrix? = nil) {
        self.matrixOverride = matrixOverride
    }

    /// The motion sensors udev lists, sorted by node number (event2 before event10).
    public static func candidates() -> [MotionPadCandidate] {
        LibIIO.udevInputAccelerometers()
            .filter { $0.node.hasPrefix("/dev/input/event") }
            .sorted { number($0.node) < number($1.node) }
            .map { MotionPadCandidate(node: $0.node, name: $0.name,
                                      udevMountMatrix: $0.properties["ACCEL_MOUNT_MATRIX"]) }
    }

    /// Opens and describes every motion sensor (`tiltd list`).
    ///
    /// - Parameter skipped: receives why a listed node could not be described
    ///   (EACCES without the udev rule, a node that vanished).
    /// - Returns: the pads in node order.
    public func pads(skipped: inout [any Error]) -> [MotionPadInfo] {
        Self.candidates().compactMap { candidate in
            do {
                return try open(candidate).info
            } catch {
                skipped.append(error)
                return nil
            }
        }
    }

    /// Opens one candidate with the matrix that applies: `Setting.mountMatrix`,
    /// else udev's ACCEL_MOUNT_MATRIX (hwdb), else the family's.
    ///
    /// - Throws: `EvdevError`, `MotionPadSelectionError.notMotionSensor`, `MountMatrixError`.
    func open(_ candidate: MotionPadCandidate) throws -> MotionPad {
        if let matrixOverride {
            return try MotionPad(node: candidate.node, matrix: (matrixOverride, .commandLine))
        }
        if let text = candidate.udevMountMatrix {
            return try MotionPad(node: candidate.node, matrix: (try MountMatrix(parsing: text), .udev))
        }
        return try MotionPad(node: candidate.node)
    }

    private static func number(_ node: String) -> Int {
        Int(node.dropFirst("/dev/input/event".count)) ?? Int.max
    }
}
