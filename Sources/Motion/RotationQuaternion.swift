import Glibc

/// A sensor hub's fused orientation quaternion (HID `dev_rotation`,
/// `in_rot_quaternion_raw`) and the direction of "up" it implies in the
/// device frame, the vector the pipeline filters.
///
/// The IIO ABI does not say in which order the four components come,
/// whether the quaternion turns the device into the world or the world into
/// the device (Windows and W3C use x, y, z, w), nor how the frame it
/// describes lies relative to the accelerometer's (SPEC §11). So the
/// convention is not assumed but checked against the accelerometer on the
/// same hub (`RotationQuaternion.convention(agreeingWith:…)`,
/// `RotationConventionChooser`): both orders, either direction, and each of
/// the 24 axis-aligned rotations between the two frames.
public enum RotationQuaternion {
    /// One way to read the four components.
    public struct Convention: Sendable, Equatable, CustomStringConvertible {
        /// True when the components are x, y, z, w (Windows, W3C); false for w, x, y, z.
        public var scalarLast: Bool
        /// True when the quaternion turns the world into the device (the
        /// conjugate of a device-to-world rotation).
        public var conjugate: Bool
        /// The accelerometer's axes in terms of the quaternion's device frame
        /// (the identity when they are the same).
        public var axes: AxisRotation

        public init(scalarLast: Bool, conjugate: Bool, axes: AxisRotation = .identity) {
            self.scalarLast = scalarLast
            self.conjugate = conjugate
            self.axes = axes
        }

        /// The four ways to read the components, in preference order: the
        /// common conventions first.
        public static let readings = [
            Convention(scalarLast: true, conjugate: false), Convention(scalarLast: true, conjugate: true),
            Convention(scalarLast: false, conjugate: false), Convention(scalarLast: false, conjugate: true),
        ]

        /// Every convention tried, in preference order: the four readings
        /// with the frames' axes the same, then with each other axis-aligned
        /// rotation between the frames (`AxisRotation.all`): 96.
        public static let candidates = AxisRotation.all.flatMap { axes in
            readings.map { Convention(scalarLast: $0.scalarLast, conjugate: $0.conjugate, axes: axes) }
        }

        public var description: String {
            (scalarLast ? "x, y, z, w" : "w, x, y, z") + (conjugate ? ", world to device" : "")
                + (axes.isIdentity ? "" : ", accelerometer axes \(axes)")
        }
    }

    /// The unit "up" vector (what an accelerometer reads at rest, normalised)
    /// in the accelerometer's frame, for the four components as read.
    @inlinable
    public static func up(_ components: SIMD4<Double>, convention: Convention) -> SIMD3<Double> {
        var w = convention.scalarLast ? components.w : components.x
        let x = convention.scalarLast ? components.x : components.y
        let y = convention.scalarLast ? components.y : components.z
        let z = convention.scalarLast ? components.z : components.w
        if convention.conjugate { w = -w }
        let norm = w * w + x * x + y * y + z * z
        guard norm > 0, norm.isFinite else { return SIMD3(0, 0, 1) }
        let v = SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z)
        return convention.axes.apply(v * (1 / norm))
    }

    /// The first candidate convention whose "up" lies within
    /// `toleranceRadians` of the measured acceleration, and the smallest
    /// angle any candidate reached (radians).
    public static func convention(agreeingWith acceleration: SIMD3<Double>, components: SIMD4<Double>,
                                  toleranceRadians: Double = 15 * .pi / 180) -> (Convention?, Double) {
        let length = (acceleration * acceleration).sum().squareRoot()
        guard length > 0, length.isFinite else { return (nil, .pi) }
        var best = Double.pi
        var chosen: Convention?
        for candidate in Convention.candidates {
            let cosine = (up(components, convention: candidate) * acceleration).sum() / length
            let angle = Glibc.acos(min(1, max(-1, cosine)))
            best = min(best, angle)
            if chosen == nil, angle <= toleranceRadians { chosen = candidate }
        }
        return (chosen, best)
    }
}
