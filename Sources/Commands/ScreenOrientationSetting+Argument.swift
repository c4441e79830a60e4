import Motion

extension ScreenOrientationSetting {
    /// Parses `Setting.screenOrientation`: an orientation's name (`normal`,
    /// `bottom-up`, `left-up`, `right-up`) or `auto`; nil for anything else.
    public init?(argument text: String) {
        if text == "auto" {
            self = .auto
        } else if let orientation = ScreenOrientation(rawValue: text) {
            self = .fixed(orientation)
        } else {
            return nil
        }
    }

    /// The setting as `Setting.screenOrientation` takes it.
    public var argumentText: String {
        switch self {
        case let .fixed(orientation): return orientation.rawValue
        case .auto: return "auto"
        }
    }

    /// Every value `Setting.screenOrientation` takes, in the order help lists them.
    public static let argumentTexts = ScreenOrientation.allCases.map(\.rawValue) + ["auto"]
}
