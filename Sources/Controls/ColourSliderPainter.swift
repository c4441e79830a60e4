import Foundation
import Knob

/// Draws RGBColorSlider's pieces (CONTROLS.md §3): a component's track, the
/// thumb, and the demo's view (a swatch of the colour above the sliders,
/// on white).
///
/// A track shows the group's colour with its own component running from 0
/// at the left to 1 at the right, linear in 0–255 values: pixel column `x`
/// of `w` has the component `round(255 · x / (w − 1))`, so the first and
/// last columns carry the ends exactly; square ends, no border.
///
/// The thumb is UIKit's slider thumb of the original's iOS: a white 28 pt
/// disc with a hairline edge and a soft shadow. CONTROLS.md gives no
/// numbers for the edge and shadow; these are chosen to look like it: the
/// edge one device pixel of black at 20 %, the shadow black at 25 %, 3 pt
/// down, blurred with a 2 pt Gaussian.
public enum ColourSliderPainter {
    /// The track's default height.
    public static let trackHeightPoints = 6.0
    /// The thumb disc's diameter.
    public static let thumbDiameterPoints = 28.0
    static let edge = RGBAColour(red: 0, green: 0, blue: 0, alpha: 0.2)
    static let shadowOpacity = 0.25, shadowOffsetPoints = 3.0, shadowSigmaPoints = 2.0

    /// One component's track, exactly `width × height` points × scale
    /// pixels, premultiplied (translucent where the colour's alpha is).
    public static func track(_ component: ColourComponent, colour: RGBAColour, widthPoints: Double,
                             heightPoints: Double = trackHeightPoints, scale: Int) -> RGBAImage {
        let w = Int((widthPoints * Double(scale)).rounded()), h = Int((heightPoints * Double(scale)).rounded())
        var row = [UInt8](repeating: 0, count: w * 4)
        for x in 0..<w {
            let t = w == 1 ? 0 : Double(x) / Double(w - 1)
            let c = component.replacing(in: colour, with: t).bytes
            row[x * 4] = c.red; row[x * 4 + 1] = c.green; row[x * 4 + 2] = c.blue; row[x * 4 + 3] = c.alpha
        }
        let straight = [[UInt8]](repeating: row, count: h).flatMap { $0 }
        return RGBAImage.premultiplying(width: w, height: h, straight: straight)
    }

    /// The thumb centred at device pixel `(centreX, centreY)`.
    public static func paintThumb(_ canvas: inout ControlCanvas, centreX: Double, centreY: Double) {
        let s = Double(canvas.scale)
        let radius = thumbDiameterPoints / 2 * s
        let sigma = shadowSigmaPoints * s, shadowY = centreY + shadowOffsetPoints * s
        let reach = radius + 4 * sigma
        canvas.shade(in: ControlCanvas.Rect(centreX: centreX, centreY: shadowY, radius: reach)) { x, y in
            // A blurred disc: across an edge much wider than σ, the normal
            // CDF of the distance inside it.
            let d = ((x - centreX) * (x - centreX) + (y - shadowY) * (y - shadowY)).squareRoot()
            let alpha = shadowOpacity * 0.5 * erfc((d - radius) / (sigma * 2.0.squareRoot()))
            return RGBAColour(red: 0, green: 0, blue: 0, alpha: alpha)
        }
        canvas.fillCircle(RGBAColour(red: 1, green: 1, blue: 1), centreX: centreX, centreY: centreY, radius: radius)
        canvas.strokeCircle(edge, centreX: centreX, centreY: centreY, radius: radius - 0.5, width: 1)
    }
}
