import Controls
import Knob
import Synchronization

/// The colour of the light the knob's shines reflect, as the page's linked
/// RGB sliders set it (CONTROLS.md §3, `ColourSliderGroup`): one component
/// at a time, clamped to 0…1, the whole colour reported once per change.
///
/// The colour goes out as the `light` field of every streamed state
/// (`"light":"RRGGBBAA"`), so every viewer's shines take it. Viewers may
/// change it only when `tiltd serve` runs with `Setting.interactive`; the
/// sliders otherwise just show it.
public final class WebLightControl: Sendable {
    private let group: Mutex<ColourSliderGroup>
    private let feed: WebStateFeed
    /// True when pages may set the colour (`Setting.interactive`).
    public let interactive: Bool

    /// Starts at `initial` (`Setting.lightColor`) and publishes it into `feed`.
    public init(initial: LightColour, interactive: Bool, feed: WebStateFeed) {
        var group = ColourSliderGroup()
        for component in ColourComponent.allCases { group.addSlider(component) }
        let channels: [(ColourComponent, UInt8)] = [(.red, initial.red), (.green, initial.green),
                                                    (.blue, initial.blue), (.alpha, initial.alpha)]
        for (component, byte) in channels { group.set(component, to: Double(byte) / 255) }
        _ = group.takeReports()
        self.group = Mutex(group)
        self.feed = feed
        self.interactive = interactive
        feed.setField("light", json: #""\#(initial.hex)""#)
    }

    /// The light as it is now.
    public var colour: LightColour { Self.lightColour(group.withLock { $0.colour }) }

    /// Sets one component (0…1, clamped) and publishes the colour it makes.
    public func set(_ component: ColourComponent, to value: Double) {
        let reported = group.withLock { group -> [RGBAColour] in
            group.set(component, to: value)
            return group.takeReports()
        }
        for colour in reported {
            feed.setField("light", json: #""\#(Self.lightColour(colour).hex)""#)
        }
    }

    /// The 8-bit light of a slider colour (each component rounded).
    static func lightColour(_ colour: RGBAColour) -> LightColour {
        func byte(_ value: Double) -> UInt8 { UInt8((min(1, max(0, value)) * 255).rounded()) }
        return LightColour(red: byte(colour.red), green: byte(colour.green), blue: byte(colour.blue),
                           alpha: byte(colour.alpha))
    }
}
