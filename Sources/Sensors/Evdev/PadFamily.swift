import Motion

/// The game-pad families whose motion sensors tiltd knows, by USB/Bluetooth
/// vendor, and the frame their kernel driver reports.
///
/// hid-playstation (DualSense, DualShock 4; hid-sony before 5.12),
/// hid-nintendo (Switch Pro, Joy-Con) and hid-steam (Steam Deck) all report
/// the pad frame game libraries use (SDL's "controller held in front of
/// you"): x to the right grip, y out of the face (up when the pad lies face
/// up), z toward the player. hid-nintendo and hid-steam remap their IMUs'
/// own axes into that frame in the driver. tiltd's frame (SPEC §3) is x to
/// the left edge, y to the bottom edge (the grips, nearest the player), z
/// out of the face, so the matrix is the same for all three; docs/devices.md
/// says how to check it and `Setting.mountMatrix` overrides it.
public enum PadFamily: String, Sendable, CaseIterable {
    case playstation = "hid-playstation"
    case nintendo = "hid-nintendo"
    case steam = "hid-steam"
    /// A motion sensor from another vendor: the pad frame is assumed.
    case other = "other"

    /// The family of a vendor id (input_id.vendor).
    public init(vendor: Int) {
        switch vendor {
        case 0x054C: self = .playstation
        case 0x057E: self = .nintendo
        case 0x28DE: self = .steam
        default: self = .other
        }
    }

    /// tiltd x = −pad x, tiltd y = pad z, tiltd z = pad y (rows of M in M·v).
    /// A rotation (determinant +1): flat face up reads (0, 0, +g); right grip
    /// down reads x > 0, so roll > 0.
    public static let padFrameMatrix = MountMatrix(SIMD3(-1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 1, 0))

    /// The matrix tiltd applies to this family's readings.
    public var matrix: MountMatrix { PadFamily.padFrameMatrix }

    /// The report rate the driver documents, in Hz: `CaptureStatus.rateHertz`
    /// for a pad (traces leave it out: samples keep their own timestamps): DualShock 4 / DualSense 250 Hz
    /// over USB, Switch controllers one report per 15 ms (each with three IMU
    /// samples), the Steam Deck one per 4 ms (SPEC §11).
    public var nominalRateHertz: Double {
        switch self {
        case .playstation, .steam, .other: return 250
        case .nintendo: return 66.67
        }
    }

    /// How messages and `tiltd list` name the family's frame.
    public var frameDescription: String {
        switch self {
        case .other: return "unknown driver, pad frame assumed (x right, y out of the face, z toward you)"
        default: return "\(rawValue) pad frame (x right, y out of the face, z toward you)"
        }
    }
}
