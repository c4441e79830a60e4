/// RGBColorSlider's group of linked sliders (CONTROLS.md §3): up to four
/// sliders, one per component, sharing one colour.
///
/// Every change clamps the value to [0, 1], stores it, redraws every
/// member's track in the order R, G, B, A (each track shows the whole
/// colour) and then reports the colour once. Adding a slider sets its
/// component (0, or 1 for alpha) and so reports too; adding a second slider
/// of a kind replaces the first. As a value type the group keeps what it
/// did in `redraws` and `reports`, for a view to act on and tests to count;
/// `takeReports()` drains the reports.
public struct ColourSliderGroup: Sendable, Equatable {
    /// The shared colour, initially opaque black.
    public private(set) var colour = RGBAColour(red: 0, green: 0, blue: 0, alpha: 1)
    /// The components that have a slider.
    public private(set) var members: Set<ColourComponent> = []
    /// The tracks redrawn by the latest change, in order.
    public private(set) var redraws: [ColourComponent] = []
    /// Colours reported and not yet taken, oldest first.
    public private(set) var reports: [RGBAColour] = []

    public init() {}

    /// Adds (or replaces) the slider for `component`, which sets it to 0
    /// (1 for alpha).
    public mutating func addSlider(_ component: ColourComponent) {
        members.insert(component)
        set(component, to: component == .alpha ? 1 : 0)
    }

    /// The value a member's slider shows.
    public func value(_ component: ColourComponent) -> Double {
        component.value(in: colour)
    }

    /// Sets one component (clamped to [0, 1]; NaN counts as 0), redraws
    /// every member's track and reports the colour once.
    public mutating func set(_ component: ColourComponent, to value: Double) {
        let clamped = value.isNaN ? 0 : min(1, max(0, value))
        colour = component.replacing(in: colour, with: clamped)
        redraws = members.sorted()
        reports.append(colour)
    }

    /// The reports so far, emptying the list.
    public mutating func takeReports() -> [RGBAColour] {
        defer { reports.removeAll() }
        return reports
    }
}
