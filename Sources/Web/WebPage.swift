import Knob

/// The page `tiltd serve` shows at `/`: HTML, CSS and its own JavaScript
/// inline, filled in from Sources/Web/Page (`WebPageFile`); beside them it
/// loads `/tiltd.js` (`WebTiltdScript`) and the layer images, no request
/// beyond this server.
///
/// It stacks `/layers/base.png` and two `/layers/shine.png` (all the same
/// size, centred), turns each shine with CSS `rotate(<rad>rad)` (positive =
/// clockwise on screen, as the rasterizer) and fades it with `opacity`, as
/// each state arrives on its stream (`/events`, or `/ws` when the page takes
/// input: `openStream` in controls.js, one dispatch for both). Like the original, every update animates
/// from what is on screen (a CSS transition starts from the current computed
/// value, so it never jumps back) with `KnobAnimator`'s duration and curve
/// (1/120 s, ease-in-ease-out), the same the renderer draws. The newest
/// applied state is also written to `data-*` attributes of `#knob` (and the
/// count of applied states to `data-applied`) so tests can read what the
/// page did; the plot writes its scale to `data-*` of `#plot`.
/// `/?frames=N` closes the stream after N states, for headless snapshots.
/// Controls beside the knob come as `WebPagePart`s.
///
/// The knob and the plot shrink to fit a narrow window (no sideways
/// scrolling); the plot's vertical scale follows the roll and pitch shown
/// (`plotScale` in page.js: at most 6 labelled intervals of 1, 2, 5, 10, 20,
/// 30, 45 or 90°, holding 0 and ±5°, ±180° at most) with labelled ticks.
enum WebPage {
    /// The page for layer images of `layerSize` pixels: index.html with
    /// page.css, page.js, the parts and the controls filled in.
    static func html(layerSize: Int, animator: KnobAnimator = KnobAnimator(), parts: [WebPagePart] = [],
                     controls: WebPageControls = WebPageControls()) -> String {
        // One layer pixel per CSS pixel: the knob is as large as `Setting.size` asks
        // (smaller when the window is narrower).
        let css = WebPageFile.fill(PackageResources.page_css, [
            "size": String(layerSize), "transition": cssTransition(animator),
            "parts.css": parts.map(\.style).joined(separator: "\n"), "controls.css": controlsCSS,
        ])
        let script = WebPageFile.fill(PackageResources.page_js, [
            "controls.js": controlsScript(controls), "parts.js": parts.map(\.script).joined(separator: "\n"),
        ])
        return WebPageFile.fill(PackageResources.index_html, [
            "page.css": css, "parts.html": parts.map(\.html).joined(separator: "\n"),
            "controls.html": controlsHTML(controls), "page.js": script,
        ])
    }
}

extension WebPage {
    /// The CSS `transition` of a shine: transform and opacity over the
    /// animator's duration, eased by its curve as `cubic-bezier(…)`.
    static func cssTransition(_ animator: KnobAnimator) -> String {
        let milliseconds = Double(animator.durationNanoseconds) / 1e6
        let c = animator.curve
        let curve = [c.x1, c.y1, c.x2, c.y2].map { JSONText.number($0, decimals: 6) }.joined(separator: ", ")
        let duration = "\(JSONText.number(milliseconds, decimals: 6))ms"
        return "transform \(duration) cubic-bezier(\(curve)), opacity \(duration) cubic-bezier(\(curve))"
    }
}
