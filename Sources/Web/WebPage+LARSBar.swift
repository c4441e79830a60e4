import Controls
import Knob

extension WebPage {
    /// The LARSBar slider beside the knob: a canvas drawn in device pixels
    /// at scale 1…3 (the window's, or `?scale=S`) exactly as
    /// `EQSliderPainter` draws, in its order: body, groove, each row's
    /// lights from the highest index down (resting dot, shadowed lit fill
    /// at alpha σ, outline, glow), the thumb last (the small knob's base
    /// and two shines turned and faded by each knob state).
    ///
    /// Levels come on the page's stream as the `levels` channel (`event:
    /// levels` on `/events`, `{"levels":…}` on `/ws`: the same listener); the
    /// value as the `volume` channel (`{"value":F}`, 0…1; 1 until the first). Each light
    /// fades over `EQLightFade`'s 0.1 s ease-out when its target flips.
    /// When interactive, dragging moves the thumb and sends
    /// `{"control":"volume","value":F}` on `/ws`, at most every 50 ms (the
    /// newest value wins), and volume events wait until 0.5 s after the
    /// last send so the thumb does not jump back under the finger.
    ///
    /// The canvas's `data-*` attributes say what it shows (value, levels,
    /// lit and active counts, shines, scale, `data-settled` once no fade
    /// runs and the thumb is loaded) and, with `?pixels=1`, its pixels as
    /// a PNG data URL once settled: the browser test compares them with the
    /// rasterizer's. `?still=1` skips the fades (lights show their targets
    /// at once), for headless snapshots.
    ///
    /// Its files: larsbar.css, larsbar.html and larsbar.js (`constants`: a
    /// JavaScript object literal of the layout, style and fade numbers).
    static func larsBarPart(_ bar: WebLARSBar, style: EQSliderStyle = .original) -> WebPagePart {
        let layout = bar.layout
        let curve = EQLightFade.curve
        let constants = """
            { width: \(layout.widthPoints), height: \(layout.heightPoints), n: \(layout.lightCount), \
            gap: \(layout.gapPoints), cellWidth: \(EQSliderLayout.cellWidthPoints), \
            cellHeight: \(EQSliderLayout.cellHeightPoints), dotRadius: \(EQSliderLayout.dotRadiusPoints), \
            dotX: \(EQSliderLayout.dotCentreInCell.x), dotY: \(EQSliderLayout.dotCentreInCell.y), \
            rowOffset: \(EQSliderLayout.rowOffsetPoints), groove: \(EQSliderPainter.grooveHeightPoints), \
            thumbFrame: \(EQSliderPainter.thumbFramePoints), fadeSeconds: \(EQLightFade.durationSeconds), \
            curve: [\(curve.x1), \(curve.y1), \(curve.x2), \(curve.y2)], interactive: \(bar.interactive), \
            sections: [\(style.sections.map(jsColour).joined(separator: ", "))], \
            activeResting: \(jsColour(style.activeResting)), inactiveResting: \(jsColour(style.inactiveResting)), \
            shadow: \(jsColour(style.shadow)), outline: \(jsColour(style.outline)), body: \(jsColour(style.body)), \
            grooveColour: \(jsColour(style.groove)) }
            """
        return WebPagePart(style: WebPageFile.fill(PackageResources.larsbar_css),
                           html: WebPageFile.fill(PackageResources.larsbar_html),
                           script: WebPageFile.fill(PackageResources.larsbar_js, ["constants": constants]))
    }

    /// `[r, g, b, a]`: straight 0–255 channels rounded as the rasterizer
    /// rounds, and alpha 0…1.
    private static func jsColour(_ colour: RGBAColour) -> String {
        let b = colour.bytes
        return "[\(b.red), \(b.green), \(b.blue), \(colour.alpha)]"
    }
}
