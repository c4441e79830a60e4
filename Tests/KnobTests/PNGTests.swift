import Foundation
import Images
@testable import Knob
import Testing

@Suite(.timeLimit(.minutes(2))) struct PNGTests {
    /// A premultiplied image with every alpha level and colours up to it.
    static func sample() -> RGBAImage {
        var image = RGBAImage(width: 37, height: 29)
        var seed: UInt32 = 12345
        for y in 0..<29 {
            for x in 0..<37 {
                seed = seed &* 1_103_515_245 &+ 12345
                let a = UInt8(truncatingIfNeeded: seed >> 16)
                let r = UInt8(Int(seed >> 8 & 0xFF) * Int(a) / 255)
                image[x, y] = RGBA8(r: r, g: a / 2, b: a, a: a)
            }
        }
        return image
    }

    @Test func memoryRoundTripKeepsEveryPixel() throws {
        let image = Self.sample()
        let decoded = try PNGReader.decode(try PNGWriter.encode(image))
        #expect(decoded == image)
    }

    @Test func fileRoundTripKeepsEveryPixel() throws {
        let image = KnobCompositor(size: 40).layers.base
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-png-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGWriter.write(image, to: path)
        #expect(try PNGReader.read(path: path) == image)
        let bytes = try PNGWriter.encode(image)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func unwritablePathNamesTheFile() {
        #expect {
            try PNGWriter.write(RGBAImage(width: 2, height: 2), to: "/nonexistent-dir/frame.png")
        } throws: { error in
            "\(error)".contains("/nonexistent-dir/frame.png")
        }
    }

    @Test func garbageIsNotAPNG() {
        #expect(throws: PNGError.self) { try PNGReader.decode([1, 2, 3, 4]) }
    }
}
