@testable import Knob
import Testing

/// The colour of the light the shines reflect.
@Suite(.timeLimit(.minutes(2))) struct LightColourTests {
    static let pose = ShinePair(roll: 0.3, pitch: 0.1)

    @Test func parsesSixOrEightHexDigits() {
        #expect(LightColour(hex: "FFC040") == LightColour(red: 255, green: 192, blue: 64, alpha: 255))
        #expect(LightColour(hex: "#ffc04080") == LightColour(red: 255, green: 192, blue: 64, alpha: 128))
        #expect(LightColour(hex: "FFFFFF") == .white)
        for bad in ["", "FFF", "FFC04", "FFC0408", "GGGGGG", "FFC040801", "+FFFFF"] {
            #expect(LightColour(hex: bad) == nil, "'\(bad)'")
        }
        #expect(LightColour(red: 1, green: 2, blue: 171).hex == "0102ABFF")
    }

    /// The tinted blend with a full channel is the white blend, for every
    /// base byte and blend factor: so white stays byte for byte.
    @Test func tintWithAFullChannelIsTheWhiteBlend() {
        for base in 0...255 {
            for f in 0...255 {
                let white = ShineTransform.blend(UInt8(base), UInt16(f))
                #expect(ShineTransform.tint(UInt8(base), UInt16(f), light: 255) == white)
            }
        }
    }

    @Test func whiteLightIsTheDefaultFrame() {
        let compositor = KnobCompositor(size: 56)
        var plain = compositor.makeFrame(), white = compositor.makeFrame(), reference = compositor.makeFrame()
        compositor.compose(Self.pose, into: &plain)
        compositor.compose(Self.pose, light: LightColour(hex: "FFFFFF")!, into: &white)
        compositor.composeReference(Self.pose, light: .white, into: &reference)
        #expect(plain == white && white == reference)
    }

    @Test(arguments: [LightColour(red: 255, green: 80, blue: 0), LightColour(red: 40, green: 160, blue: 255, alpha: 128),
                      LightColour(red: 0, green: 0, blue: 0, alpha: 255)])
    func colouredFastPathEqualsReference(light: LightColour) {
        for size in [21, 56] {
            let compositor = KnobCompositor(size: size)
            for pose in [ShinePair.rest, Self.pose, ShinePair(roll: -2.2, pitch: 0.9)] {
                var fast = compositor.makeFrame(), reference = compositor.makeFrame()
                compositor.compose(pose, light: light, into: &fast)
                compositor.composeReference(pose, light: light, into: &reference)
                #expect(fast == reference, "size \(size), light \(light), pose \(pose)")
            }
        }
    }

    /// A red light tints the shine: where the shine is, red rises as with
    /// white but green and blue stay at the base's (the light has none);
    /// where no shine reaches, the base is unchanged; premultiplied always.
    @Test func redLightTintsOnlyWhereTheShineIs() {
        let compositor = KnobCompositor(size: 56)
        var white = compositor.makeFrame(), red = compositor.makeFrame()
        compositor.compose(.rest, into: &white)
        compositor.compose(.rest, light: LightColour(red: 255, green: 0, blue: 0), into: &red)
        let base = compositor.layers.base
        var shone = 0
        for y in 0..<56 {
            for x in 0..<56 {
                let b = base[x, y], w = white[x, y], r = red[x, y]
                #expect(r.r <= r.a && r.g <= r.a && r.b <= r.a)
                if w == b { #expect(r == b); continue }
                shone += 1
                #expect(r.r == w.r && r.a == w.a, "(\(x), \(y))")
                #expect(r.g <= b.g && r.b <= b.b, "(\(x), \(y))")
            }
        }
        #expect(shone > 100)
    }

    /// The light's alpha dims the shines: a clear light shows the bare base.
    @Test func aClearLightShowsNoShine() {
        let compositor = KnobCompositor(size: 56)
        var frame = compositor.makeFrame()
        compositor.compose(Self.pose, light: LightColour(red: 255, green: 255, blue: 255, alpha: 0), into: &frame)
        #expect(frame == compositor.layers.base)
    }
}
