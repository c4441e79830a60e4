import Motion
import Wording
/// A `scan_elements/*_type` text that is not in the IIO ABI format.
public struct ScanElementTypeError: Error, Sendable, CustomStringConvertible {
    /// The text as read.
    public var text: String

    public var description: String {
        "scan element type \"\(text.replacingNewlines())\" is not [be|le]:[s|u]BITS/STORAGE[>>SHIFT]: "
            + "the driver reports a format tiltd cannot decode; use \(Setting.mode) poll"
    }
}
