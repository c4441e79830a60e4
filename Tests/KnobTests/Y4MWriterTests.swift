@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct Y4MWriterTests {
    @Test func headerStatesSizeRateAndChromaSiting() {
        let w = Y4MWriter(width: 256, height: 256, framesPerSecond: 60)
        #expect(String(decoding: w.header, as: UTF8.self)
                == "YUV4MPEG2 W256 H256 F60:1 Ip A1:1 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED\n")
    }

    @Test(arguments: [(256, 256), (21, 21), (84, 84), (17, 30)])
    func frameHasFrameTagAndThreePlanes(width: Int, height: Int) {
        var w = Y4MWriter(width: width, height: height)
        var out: [UInt8] = []
        w.appendFrame(RGBAImage(width: width, height: height), to: &out)
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        #expect(out.count == 6 + width * height + 2 * chroma)
        #expect(w.frameByteCount == out.count)
        #expect(Array(out.prefix(6)) == Array("FRAME\n".utf8))
    }

    /// BT.601 limited range: white is Y 235, black Y 16, greys have neutral
    /// chroma; transparent pixels show the background.
    @Test func convertsBT601LimitedRangeOverTheBackground() {
        let white = RGBAImage.filled(width: 4, height: 2, with: RGBA8(grey: 255))
        var out: [UInt8] = []
        var w = Y4MWriter(width: 4, height: 2, background: RGBA8(grey: 0))
        w.appendFrame(white, to: &out)
        #expect(out[6..<14].allSatisfy { $0 == 235 })
        #expect(out[14..<18].allSatisfy { $0 == 128 })
        out.removeAll()
        w.appendFrame(RGBAImage(width: 4, height: 2), to: &out)
        #expect(out[6..<14].allSatisfy { $0 == 16 })
        out.removeAll()
        var red = Y4MWriter(width: 4, height: 2, background: RGBA8(r: 255, g: 0, b: 0))
        red.appendFrame(RGBAImage(width: 4, height: 2), to: &out)
        #expect(out[6] == 82)            // red: Y 82 (81.5 exactly), Cb 90, Cr 240
        #expect(out[14] == 90 && out[16] == 240)
    }

    /// The SIMD path, which also reuses blocks unchanged since the previous
    /// frame, writes exactly what the per-pixel reference writes, frame after
    /// frame, on sizes with and without partial blocks.
    @Test(arguments: [256, 21, 84, 30])
    func vectorizedFramesEqualTheScalarReference(size: Int) {
        let compositor = KnobCompositor(size: size)
        var writer = Y4MWriter(width: size, height: size, background: RGBA8(r: 30, g: 60, b: 200))
        let reference = writer
        var frame = compositor.makeFrame()
        let poses = [ShinePair(roll: 0.1, pitch: 0), ShinePair(roll: 0.1, pitch: 0), ShinePair(roll: -0.5, pitch: 0.3),
                     ShinePair(roll: 0.9, pitch: -0.2), .rest]
        for pose in poses {
            compositor.compose(pose, into: &frame)
            var fast: [UInt8] = [], slow: [UInt8] = []
            writer.appendFrame(frame, to: &fast)
            reference.appendFrame(frame, to: &slow, vectorized: false)
            let firstDifference = fast.indices.first { $0 >= slow.count || fast[$0] != slow[$0] }
            #expect(fast.count == slow.count && firstDifference == nil,
                    "size \(size) pose \(pose): first differing byte \(String(describing: firstDifference))")
        }
    }
}
