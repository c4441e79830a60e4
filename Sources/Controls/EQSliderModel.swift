/// The value of a LARSBar slider and the two channel levels it shows
/// (CONTROLS.md §1).
///
/// Lights left of the thumb are *active*: light `i` of `N` is active when
/// `i / N` is below the value's fraction of its range. In each row the
/// lights with an index below `floor(N · ℓ · v / vmax)` are *lit*, with ℓ
/// the channel's level.
///
/// The lit count uses `v / vmax`, not the fraction `(v − vmin) / (vmax −
/// vmin)` the active test uses. That is the original's arithmetic, kept on
/// purpose so stills match it: with `vmin = 0` (the default) the two agree
/// and every lit light is active; with another minimum the lit lights can
/// run past the active ones or stop short of them.
public struct EQSliderModel: Sendable, Equatable {
    /// The slider's value, in `minimumValue…maximumValue` (not clamped: the
    /// active fraction is).
    public var value: Double
    public var minimumValue: Double
    public var maximumValue: Double
    /// Left channel level, clamped to [0, 1]; default 0.5.
    public var leftLevel: Double { didSet { leftLevel = Self.clampUnit(leftLevel) } }
    /// Right channel level, clamped to [0, 1]; default 0.5.
    public var rightLevel: Double { didSet { rightLevel = Self.clampUnit(rightLevel) } }

    public init(value: Double, minimumValue: Double = 0, maximumValue: Double = 1,
                leftLevel: Double = 0.5, rightLevel: Double = 0.5) {
        precondition(maximumValue > minimumValue, "a slider's maximum must be above its minimum")
        self.value = value
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.leftLevel = Self.clampUnit(leftLevel)
        self.rightLevel = Self.clampUnit(rightLevel)
    }

    static func clampUnit(_ x: Double) -> Double { x.isNaN ? 0 : min(1, max(0, x)) }

    /// The level of one channel.
    public func level(_ channel: EQChannel) -> Double {
        channel == .left ? leftLevel : rightLevel
    }

    /// `(v − vmin) / (vmax − vmin)` clamped to [0, 1]: where the thumb is.
    public var fraction: Double {
        Self.clampUnit((value - minimumValue) / (maximumValue - minimumValue))
    }

    /// Whether light `index` of `lightCount` is left of the thumb.
    public func isActive(_ index: Int, lightCount: Int) -> Bool {
        Double(index) / Double(lightCount) < fraction
    }

    /// How many lights are active: those with `i / N < fraction`.
    public func activeCount(lightCount: Int) -> Int {
        (0..<lightCount).filter { isActive($0, lightCount: lightCount) }.count
    }

    /// How many of a row's lights are lit, `floor(N · ℓ · v / vmax)`,
    /// within 0…N (the `v / vmax` quirk: see the type's documentation).
    public func litCount(_ channel: EQChannel, lightCount: Int) -> Int {
        let lit = (Double(lightCount) * level(channel) * value / maximumValue).rounded(.down)
        guard lit.isFinite else { return 0 }
        return min(lightCount, max(0, Int(lit)))
    }

    /// Whether light `index` of a row is lit (its index is below the lit count).
    public func isLit(_ index: Int, _ channel: EQChannel, lightCount: Int) -> Bool {
        index < litCount(channel, lightCount: lightCount)
    }
}
