/// Turns a device-frame vector into the screen's frame (SPEC §3).
///
/// Each case is the rotation about z that makes the screen, held upright
/// the way it is displayed, read (0, −g, 0):
/// normal (x, y, z); bottom-up (−x, −y, z); left-up (y, −x, z);
/// right-up (−y, x, z). All four are proper rotations (determinant +1).
///
/// MTZTiltReflectionSlider instead remapped the *angles* with
/// landscape-left (−p, −r) and landscape-right (p, r); those have
/// determinant −1, so in landscape one tilt direction turned the shine the
/// wrong way (a mirror image of the portrait behaviour). Rotating the
/// vector before computing angles keeps every orientation behaving like
/// portrait.
public enum ScreenMapping {
    /// The vector in the frame of a screen displayed in `orientation`.
    @inlinable @inline(__always)
    public static func map(_ v: SIMD3<Double>, to orientation: ScreenOrientation) -> SIMD3<Double> {
        switch orientation {
        case .normal: return v
        case .bottomUp: return SIMD3(-v.x, -v.y, v.z)
        case .leftUp: return SIMD3(v.y, -v.x, v.z)
        case .rightUp: return SIMD3(-v.y, v.x, v.z)
        }
    }
}
