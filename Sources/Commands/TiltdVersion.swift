/// tiltd's version: `--version` of both executables, trace headers and
/// `serve`'s page.
public enum TiltdVersion {
    public static let current = "0.1.0"
}
