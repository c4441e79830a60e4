/// The page's controls beside the knob (docs/controls.md): the Spark
/// recording ring (`Setting.recordDir`) and the linked RGB sliders that set the
/// light's colour (live with `Setting.interactive`, display-only without).
///
/// The ring is drawn on a canvas with the painter's geometry
/// (`RecordingRingPainter`: path from 9 o'clock counter-clockwise, radius
/// S/2 − 20, 7 px flat-ended stroke, grey track over the unused part); the
/// server's `ring` field says which segments exist and, while held, how
/// long the hold has lasted, and the page grows the newest segment from
/// there, linearly, as the model does. Pressing the ring sends
/// `{"control":"ring","value":1}` on the page's WebSocket, releasing
/// (pointer up, cancel, or capture lost) `…"value":0`. The sliders' tracks
/// run from the colour with their component at 0 to it at 1, linear in
/// 0–255 values; moving one sends `{"control":"light-red","value":0…1}`
/// (at most every 100 ms while dragging, within the input rate limit),
/// and every viewer's shines take the colour when the server streams it
/// back (`light`). The newest ring and light are written to `data-*`
/// attributes of `#ring` and `#knob` for tests.
extension WebPage {
    /// Side of the ring's canvas in CSS pixels.
    static let ringSize = 240

    /// The controls' CSS (controls.css).
    static var controlsCSS: String { WebPageFile.fill(PackageResources.controls_css, ["ring-size": String(ringSize)]) }

    /// The controls' markup (controls.html): the ring when recording is on
    /// (controls-ring.html), the sliders always (light-slider.html).
    static func controlsHTML(_ controls: WebPageControls) -> String {
        let ring = controls.recorder.map { recorder in
            WebPageFile.fill(PackageResources.controls_ring_html, [
                "limit-seconds": JSONText.number(recorder.limitSeconds, decimals: 3), "ring-size": String(ringSize),
            ]) + "\n"
        }
        let interactive = controls.light?.interactive == true
        let sliders = ["red", "green", "blue", "alpha"].map { component in
            WebPageFile.fill(PackageResources.light_slider_html,
                             ["component": component, "disabled": interactive ? "" : " disabled"]) + "\n"
        }
        return WebPageFile.fill(PackageResources.controls_html, [
            "ring": ring ?? "", "sliders": sliders.joined(),
            "light-note": interactive ? "" : WebPageFile.fill(PackageResources.light_note_html),
        ])
    }

    /// The controls' script (controls.js); defines `takesInput`, `openStream()`
    /// (the page's stream over `/events`, or with input over `/ws` with
    /// `send`; one dispatch of states and channels for both),
    /// `applyControls(state)` and `listenForControls(stream)` for the page's main script.
    static func controlsScript(_ controls: WebPageControls) -> String {
        WebPageFile.fill(PackageResources.controls_js, [
            "takes-input": String(controls.takesInput), "has-ring": String(controls.recorder != nil),
            "ring-size": String(ringSize),
        ])
    }
}
