/// What `tiltd serve`'s page shows beside the knob and what it lets a
/// viewer do (docs/controls.md): the recording ring with `--record-dir`
/// (`WebRingRecorder`), and the light's colour sliders, live with
/// `--interactive` and display-only without (`WebLightControl`).
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
