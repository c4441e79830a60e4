/// Where LARSBar's lights sit in a slider of a given size, in points
/// (CONTROLS.md §1).
///
/// Cells are 10 × 12 pt; as many fit as `floor((W + 3) / 7)`, spaced by a
/// gap that is negative once there are 14 or more (−3 pt: cells overlap and
/// centres are 7 pt apart). The left channel's row is centred 8 pt above the
/// slider's middle, the right channel's 8 pt below.
public struct EQSliderLayout: Sendable, Equatable {
    /// Slider width in points.
    public let widthPoints: Double
    /// Slider height in points (44 by default).
    public let heightPoints: Double
    /// Lights per row, N.
    public let lightCount: Int
    /// Space between cells in points, negative when they overlap.
    public let gapPoints: Double

    /// A cell's size in points.
    public static let cellWidthPoints = 10.0, cellHeightPoints = 12.0
    /// The dot: radius, and its centre in cell coordinates (half a point
    /// above the cell's centre).
    public static let dotRadiusPoints = 2.5
    public static let dotCentreInCell = SIMD2(5.0, 5.5)
    /// How far each row's centre is from the slider's middle.
    public static let rowOffsetPoints = 8.0
    /// The default height.
    public static let defaultHeightPoints = 44.0

    public init(widthPoints: Double, heightPoints: Double = Self.defaultHeightPoints) {
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        lightCount = Self.lightCount(widthPoints: widthPoints)
        gapPoints = Self.gap(widthPoints: widthPoints, lightCount: lightCount)
    }

    /// `floor((W + 3) / 7)`: each light needs 7 pt once cells overlap by 3.
    public static func lightCount(widthPoints: Double) -> Int {
        max(0, Int(((widthPoints + 3) / 7).rounded(.down)))
    }

    /// `(W − 10 N) / (N + 1)` rounded half away from zero, as C's `round`
    /// in the original (W = 50 gives −3; banker's rounding would give −2).
    public static func gap(widthPoints: Double, lightCount: Int) -> Double {
        guard lightCount > 0 else { return 0 }
        let spare = widthPoints - cellWidthPoints * Double(lightCount)
        return (spare / Double(lightCount + 1)).rounded(.toNearestOrAwayFromZero)
    }

    /// Cell `index`'s left edge in points: `(10 + gap) · i + gap`.
    public func cellMinX(_ index: Int) -> Double {
        (Self.cellWidthPoints + gapPoints) * Double(index) + gapPoints
    }

    /// Cell `index`'s centre x in points (with gap −3: 7i + 2).
    public func cellCentreX(_ index: Int) -> Double {
        cellMinX(index) + Self.cellWidthPoints / 2
    }

    /// The centre y of a channel's row in points: H/2 − 8 (left), H/2 + 8 (right).
    public func rowCentreY(_ channel: EQChannel) -> Double {
        heightPoints / 2 + (channel == .left ? -Self.rowOffsetPoints : Self.rowOffsetPoints)
    }

    /// A cell's top edge in points.
    public func cellMinY(_ channel: EQChannel) -> Double {
        rowCentreY(channel) - Self.cellHeightPoints / 2
    }

    /// The colour section of light `index` among `sections` colours:
    /// `floor(C · i / N)` in integers (N = 41, C = 4: 11/10/10/10).
    public func section(_ index: Int, sections: Int) -> Int {
        sections * index / lightCount
    }
}

/// One of the two audio channels, each with its row of lights.
public enum EQChannel: String, Sendable, CaseIterable {
    /// Above the track.
    case left
    /// Below the track.
    case right
}
