/// Constants of the tiltd trace format (docs/trace-format.md).
///
/// A trace is UTF-8 text, one record per line ending in `\n`:
///
///     tiltd-trace 1
///     # name: bmi260
///     # scale: 0.0023942 0.0023942 0.0023942
///     s 1843000000 0.1149 -9.7712 0.3064 48 -4081 128
///     g 1900000000 device vanished
///
/// The first line names the format and its version; `# key: value` lines
/// up to the first record are the header; `s` lines are samples (timestamp
/// in ns, acceleration in m/s², optionally the raw x, y, z, and in version 2
/// optionally `w gx gy gz [raw gx gy gz]`, the gyro in rad/s); `g` lines mark
/// a gap (no samples were captured between the previous sample and this
/// time). Later `#` lines and empty lines are ignored, as are fields beyond
/// the ones a version defines.
public enum TraceFormat {
    /// The first word of every trace.
    public static let magic = "tiltd-trace"
    /// The newest version this tiltd reads and writes. Version 2 adds the
    /// gyroscope (`# gyro-…` header keys, a `w gx gy gz` group on samples);
    /// a trace without a gyro is still written as version 1.
    public static let currentVersion = 2
    /// The marker of a sample's gyro group (ω), format 2.
    public static let gyroMarker = "w"
    /// The usual file name extension.
    public static let fileExtension = "trace"

    /// Header keys of version 1.
    public enum Key {
        public static let name = "name"
        public static let label = "label"
        public static let uri = "uri"
        public static let scale = "scale"
        public static let offset = "offset"
        public static let mountMatrix = "mount-matrix"
        public static let mountMatrixSource = "mount-matrix-source"
        public static let samplingFrequency = "sampling-frequency-hz"
        public static let tiltdVersion = "tiltd-version"
        package static let all: Set<String> = Set([name, label, uri, scale, offset, mountMatrix,
                                           mountMatrixSource, samplingFrequency, tiltdVersion])
            .union(TraceGyroHeader.Key.all)
    }
}
