/// How the screen is assumed to be turned.
public enum ScreenOrientationSetting: Sendable, Equatable {
    /// Always this orientation.
    case fixed(ScreenOrientation)
    /// Follow the discrete orientation the classifier decides, as a
    /// rotating screen does (normal until its first decision).
    case auto
}
