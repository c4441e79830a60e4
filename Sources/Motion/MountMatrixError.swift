/// A mount matrix text that cannot be used.
public struct MountMatrixError: Error, Equatable, CustomStringConvertible {
    /// The text as it was given.
    public var text: String
    /// What is wrong with it.
    public var problem: String

    public init(text: String, problem: String) {
        self.text = text
        self.problem = problem
    }

    public var description: String {
        let shown = text.replacingNewlines()
        return "invalid mount matrix \"\(shown)\": \(problem); expected \"x1, y1, z1; x2, y2, z2; x3, y3, z3\" "
            + "(fix the ACCEL_MOUNT_MATRIX udev property or pass a valid matrix)"
    }
}
