/// Every light's fade for both rows of a LARSBar slider: fed the model at
/// explicit times, it gives each light's displayed level σ at any time.
public struct EQLightAnimator: Sendable, Equatable {
    /// Lights per row.
    public let lightCount: Int
    /// Per row, per light (index 0 at the left).
    public private(set) var left: [EQLightFade]
    public private(set) var right: [EQLightFade]

    /// Lights already showing what `model` asks for (a still), or all dark
    /// when `model` is nil.
    public init(lightCount: Int, settledOn model: EQSliderModel? = nil) {
        self.lightCount = lightCount
        func row(_ channel: EQChannel) -> [EQLightFade] {
            (0..<lightCount).map { i in
                EQLightFade(settledAt: model?.isLit(i, channel, lightCount: lightCount) == true ? 1 : 0)
            }
        }
        left = row(.left)
        right = row(.right)
    }

    /// Aims every light at what `model` says (lit or dark) from `seconds`.
    public mutating func update(_ model: EQSliderModel, atSeconds seconds: Double) {
        let litLeft = model.litCount(.left, lightCount: lightCount)
        let litRight = model.litCount(.right, lightCount: lightCount)
        for i in 0..<lightCount {
            left[i].aim(lit: i < litLeft, atSeconds: seconds)
            right[i].aim(lit: i < litRight, atSeconds: seconds)
        }
    }

    /// The σ of every light at `seconds`.
    public func levels(atSeconds seconds: Double) -> EQLightLevels {
        EQLightLevels(left: left.map { $0.level(atSeconds: seconds) },
                      right: right.map { $0.level(atSeconds: seconds) })
    }
}

/// The displayed lit level σ (0…1) of every light, per row, index 0 at the
/// left: what the painter draws.
public struct EQLightLevels: Sendable, Equatable {
    public var left: [Double]
    public var right: [Double]

    public init(left: [Double], right: [Double]) {
        self.left = left
        self.right = right
    }

    /// One row's levels.
    public func row(_ channel: EQChannel) -> [Double] {
        channel == .left ? left : right
    }
}
