import Foundation
import Knob

/// Draws the Spark recording ring into a square of `S × S` points × scale
/// pixels centred on the ring, on white as in the demo (CONTROLS.md §2):
/// the light-grey track over the unused part `[L, 1]` of the path, then the
/// segments, as a 7 pt stroke with flat ends on a circle of radius S/2 − 20.
///
/// Path position `u` starts at 9 o'clock and runs counter-clockwise on
/// screen; with screen angles clockwise from 3 o'clock (y down, as CSS),
/// `θ(u) = π − 2πu`. A flat end is a radial cut at the segment's angle.
public struct RecordingRingPainter: Sendable {
    /// The square's side in points.
    public let sizePoints: Double
    /// Device pixels per point, 1…3.
    public let scale: Int

    /// The demo's stroke width.
    public static let strokeWidthPoints = 7.0
    /// The unused part of the ring.
    public static let trackColour = RGBAColour(red: 0.667, green: 0.667, blue: 0.667)
    public static let background = RGBAColour(red: 1, green: 1, blue: 1)
    /// Smallest side: the stroke must stay clear of the centre (S/2 − 20 > 3.5).
    public static let minimumSizePoints = 48.0

    public init(sizePoints: Double, scale: Int) {
        precondition(sizePoints >= Self.minimumSizePoints, "a ring needs at least \(Self.minimumSizePoints) pt")
        precondition(EQSliderPainter.supportedScales.contains(scale), "scale \(scale) is outside 1…3")
        self.sizePoints = sizePoints
        self.scale = scale
    }

    /// The ring's radius in points, S/2 − 20 (140 at 320).
    public var radiusPoints: Double { sizePoints / 2 - 20 }

    /// The screen angle of path position `u`, radians clockwise from 3 o'clock.
    public static func angle(_ u: Double) -> Double { Double.pi - 2 * Double.pi * u }

    /// The path position, 0…1, of a screen angle (radians clockwise from 3 o'clock).
    public static func position(angle: Double) -> Double {
        let u = (Double.pi - angle) / (2 * Double.pi)
        return u - u.rounded(.down)
    }

    /// The point at path position `u` on the stroke's centre line, in points.
    public func point(_ u: Double) -> SIMD2<Double> {
        let theta = Self.angle(u), c = sizePoints / 2
        return SIMD2(c + radiusPoints * cos(theta), c + radiusPoints * sin(theta))
    }

    /// The ring as `ring` shows it.
    /// - Returns: `S·s × S·s` pixels, premultiplied RGBA, opaque.
    public func paint(_ ring: RecordingRing) -> RGBAImage {
        let s = Double(scale)
        var canvas = ControlCanvas(widthPoints: sizePoints, heightPoints: sizePoints, scale: scale)
        canvas.fillAll(Self.background)
        let centre = sizePoints / 2 * s, radius = radiusPoints * s
        let half = Self.strokeWidthPoints / 2 * s
        let spans = ring.spans.filter { $0.range.upperBound > $0.range.lowerBound }
        let used = ring.total
        let paints = [Self.trackColour] + spans.map(\.colour)
        canvas.paint(paints, in: ControlCanvas.Rect(centreX: centre, centreY: centre, radius: radius + half)) { x, y in
            let dx = x - centre, dy = y - centre
            let r = (dx * dx + dy * dy).squareRoot()
            guard abs(r - radius) <= half else { return nil }
            let u = Self.position(angle: atan2(dy, dx))
            // Segments lie over the track; the newest covers u = 0 onward.
            if let k = spans.firstIndex(where: { u >= $0.range.lowerBound && u < $0.range.upperBound }) { return k + 1 }
            return u >= used ? 0 : nil
        }
        return canvas.image
    }
}
