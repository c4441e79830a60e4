import Controls

/// What `tiltd serve`'s page shows beside the knob and what it lets a
/// viewer do (docs/controls.md): the recording ring with `Setting.recordDir`
/// (`WebRingRecorder`), and the light's colour sliders, live with
/// `Setting.interactive` and display-only without (`WebLightControl`).
public struct WebPageControls: Sendable {
    public var recorder: WebRingRecorder?
    public var light: WebLightControl?

    public init(recorder: WebRingRecorder? = nil, light: WebLightControl? = nil) {
        self.recorder = recorder
        self.light = light
    }

    /// True when the page sends input at all (a ring to hold, or sliders that set the light).
    var takesInput: Bool { recorder != nil || light?.interactive == true }
}

extension WebPageControls {
    /// Registers the page's input (`{"control":…,"value":…}` on `/ws`):
    /// `ring` 1 presses and 0 releases, `ring-finish` and `ring-reset` 1,
    /// with `Setting.recordDir`; `light-red`, `light-green`, `light-blue` and
    /// `light-alpha` 0…1 with `Setting.interactive`. Anything else stays refused.
    public func enableInput(in input: inout WebInputControls) {
        if let recorder {
            input.enable("ring", range: 0...1, perViewer: { value, viewer in
                if value >= 0.5 { recorder.press(by: viewer) } else { recorder.release(by: viewer) }
            })
            input.enable("ring-finish", range: 1...1, perViewer: { _, viewer in recorder.finish(by: viewer) })
            input.enable("ring-reset", range: 1...1, perViewer: { _, viewer in recorder.reset(by: viewer) })
            input.onViewerLeft { recorder.viewerLeft($0) }
        }
        if let light, light.interactive {
            for component in ColourComponent.allCases {
                input.enable("light-" + component.rawValue, range: 0...1) { light.set(component, to: $0) }
            }
        }
    }
}
