/// The Spark ring's segment colours, random as the original's but from a
/// seed, so a still is the same on every run and machine (CONTROLS.md §2).
///
/// The original drew hue `a / 256` (a in 0…255) and saturation and
/// brightness each `0.5 + b / 256` (b in 0…127) from `arc4random`. Here the
/// integers come from SplitMix64 (Steele, Lea and Flood 2014), a small
/// generator with a fixed, documented output for every seed, unlike the
/// standard library's `random(in:using:)`, whose use of the generator may
/// change between Swift releases.
public struct RingColourGenerator: Sendable, Equatable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next segment colour: hue from 8 random bits, saturation and
    /// brightness from 7 each (the top bits of three draws).
    public mutating func nextColour() -> RGBAColour {
        let a = Double(next() >> 56), s = Double(next() >> 57), b = Double(next() >> 57)
        return RGBAColour(hue: a / 256, saturation: 0.5 + s / 256, brightness: 0.5 + b / 256)
    }
}
