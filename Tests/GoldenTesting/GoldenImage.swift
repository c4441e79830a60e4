import Foundation
import Images
import Knob

/// Compares rendered images with PNG golden files kept next to a test
/// target (its `Golden/` folder). Set `RECORD_GOLDEN=1` to rewrite them; the
/// comparison then fails saying so, so a recording run never passes
/// silently. Shared by the test targets that have goldens.
public struct GoldenImage: Sendable {
    /// The folder holding `name.png` files.
    public let directory: URL

    /// Goldens in `directory`, usually found from a test file's `#filePath`.
    public init(directory: URL) {
        self.directory = directory
    }

    public static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

    /// The differences between two images: pixels whose channels differ by
    /// more than `tolerance` levels, and the first such pixel.
    public struct Difference: Sendable {
        public var count = 0
        public var first: (x: Int, y: Int, got: RGBA8, want: RGBA8)?
        public var maxChannel = 0
    }

    public static func difference(_ got: RGBAImage, _ want: RGBAImage, tolerance: Int) -> Difference {
        var d = Difference()
        for y in 0..<got.height {
            for x in 0..<got.width {
                let g = got[x, y], w = want[x, y]
                let m = max(abs(Int(g.r) - Int(w.r)), abs(Int(g.g) - Int(w.g)),
                            abs(Int(g.b) - Int(w.b)), abs(Int(g.a) - Int(w.a)))
                d.maxChannel = max(d.maxChannel, m)
                if m > tolerance {
                    d.count += 1
                    if d.first == nil { d.first = (x, y, g, w) }
                }
            }
        }
        return d
    }

    /// nil when `image` matches the golden `name`.png within `tolerance`
    /// levels per channel; otherwise what is wrong, in one sentence.
    public func check(_ image: RGBAImage, named name: String, tolerance: Int) -> String? {
        let path = directory.appendingPathComponent(name + ".png").path
        if Self.recording {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            do { try PNGWriter.write(image, to: path, fast: false) } catch { return "\(error)" }
            return "recorded \(path) because RECORD_GOLDEN=1; run again without it to compare"
        }
        let want: RGBAImage
        do { want = try PNGReader.read(path: path) } catch {
            return "\(error) (record it with RECORD_GOLDEN=1 swift test --filter \(name))"
        }
        guard want.width == image.width, want.height == image.height else {
            return "\(path) is \(want.width)×\(want.height), rendered \(image.width)×\(image.height)"
        }
        let d = Self.difference(image, want, tolerance: tolerance)
        guard let f = d.first else { return nil }
        return "\(name): \(d.count) pixels differ by more than \(tolerance) levels (largest \(d.maxChannel)); "
            + "first at (\(f.x), \(f.y)): rendered \(f.got), golden \(f.want)"
    }
}
