import Testing
@testable import Knob

@Suite struct Y4MWriterTests {
    @Test func headerStatesSizeRateAndChromaSiting() {
        let w = Y4MWriter(width: 256, height: 256, framesPerSecond: 60)
        #expect(String(decoding: w.header, as: UTF8.self)
                == "YUV4MPEG2 W256 H256 F60:1 Ip A1:1 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED\n")
    }

    @Test(arguments: [(256, 256), (21, 21), (84, 84), (17, 30)])
    func frameHasFrameTagAndThreePlanes(width: Int, height: Int) {
        let w = Y4MWriter(width: width, height: height)
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
        Y4MWriter(width: 4, height: 2, background: RGBA8(grey: 0)).appendFrame(white, to: &out)
        #expect(out[6..<14].allSatisfy { $0 == 235 })
        #expect(out[14..<18].allSatisfy { $0 == 128 })
        out.removeAll()
        Y4MWriter(width: 4, height: 2, background: RGBA8(grey: 0)).appendFrame(RGBAImage(width: 4, height: 2), to: &out)
        #expect(out[6..<14].allSatisfy { $0 == 16 })
        out.removeAll()
        Y4MWriter(width: 4, height: 2, background: RGBA8(r: 255, g: 0, b: 0)).appendFrame(RGBAImage(width: 4, height: 2), to: &out)
        #expect(out[6] == 82)            // red: Y 82 (81.5 exactly), Cb 90, Cr 240
        #expect(out[14] == 90 && out[16] == 240)
    }
}
