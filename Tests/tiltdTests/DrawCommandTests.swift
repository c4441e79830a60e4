import Foundation
import Images
import Knob
import Testing
import TiltdTestSupport

/// `tiltd draw` end to end, through the built binary: image bounds and the
/// pixel checks (CONTROLS.md).
@Suite(.timeLimit(.minutes(15))) struct DrawCommandTests {
    static func temporaryDirectory(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-draw-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs `tiltd draw ARGS --out DIR/NAME` and reads the PNG back.
    static func draw(_ arguments: [String], in dir: URL, name: String = "still.png") throws -> RGBAImage {
        let out = dir.appendingPathComponent(name).path
        let r = try TiltdProcess.run(["draw"] + arguments + ["--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(out))
        return try PNGReader.read(path: out)
    }

    @Test func larsbarAtTwoXHasTheIssuesDotColours() throws {
        let dir = try Self.temporaryDirectory("larsbar")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.draw(["larsbar", "--width", "280", "--scale", "2", "--value", "0.5", "--levels", "0.5,0.5"],
                                  in: dir)
        #expect(image.width == 560 && image.height == 88)
        // Light 2 (centre 16 pt) is lit green; light 15 (107 pt) active and
        // unlit. Dot centres: y = (H/2 − 8 − 0.5) · 2 = 27 and (H/2 + 8 − 0.5) · 2 = 59.
        for y in [26, 58] {
            #expect(image[31, y] == RGBA8(r: 0, g: 230, b: 74), "lit green at y \(y)")
            #expect(image[213, y] == RGBA8(r: 96, g: 102, b: 106), "unlit active at y \(y)")
        }
    }

    @Test func larsbarImageIsExactlyItsBounds() throws {
        let dir = try Self.temporaryDirectory("bounds")
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = try Self.draw(["larsbar", "--width", "100", "--height", "60", "--scale", "3", "--value", "1",
                                   "--roll", "0.4", "--pitch", "-0.2"], in: dir)
        #expect(image.width == 300 && image.height == 180)
        #expect(image[0, 0] == RGBA8(r: 44, g: 48, b: 49))  // the body colour
    }

    @Test func lightColourTintsTheThumb() throws {
        let dir = try Self.temporaryDirectory("light")
        defer { try? FileManager.default.removeItem(at: dir) }
        let common = ["larsbar", "--width", "120", "--scale", "2", "--value", "0"]
        let white = try Self.draw(common, in: dir, name: "white.png")
        let explicit = try Self.draw(common + ["--light-color", "FFFFFF"], in: dir, name: "explicit.png")
        let blue = try Self.draw(common + ["--light-color", "0040FF"], in: dir, name: "blue.png")
        #expect(white == explicit)
        // The thumb's shine runs vertically through its centre (20, 44) px.
        let w = white[20, 36], b = blue[20, 36]
        #expect(b.b == w.b && b.r < w.r, "white \(w), blue \(b)")
        #expect(white[200, 4] == blue[200, 4])  // away from the thumb
    }

    @Test func redTrackColumnsAt256Pixels() throws {
        let dir = try Self.temporaryDirectory("track")
        defer { try? FileManager.default.removeItem(at: dir) }
        let track = try Self.draw(["rgb", "--color", "0.2,0.4,0.6,1", "--width", "256", "--scale", "1", "--track", "red"],
                                  in: dir)
        #expect(track.width == 256 && track.height == 6)
        #expect(track[0, 3] == RGBA8(r: 0, g: 102, b: 153))
        #expect(track[255, 3] == RGBA8(r: 255, g: 102, b: 153))
        let stacked = try Self.draw(["rgb", "--color", "0.2,0.4,0.6,1", "--width", "280", "--scale", "2"], in: dir,
                                    name: "stacked.png")
        #expect(stacked.width == 640 && stacked.height == 532)
    }

    @Test func sparkRingPixelsOfTheChecks() throws {
        let dir = try Self.temporaryDirectory("spark")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ring = try Self.draw(["spark", "--size", "320", "--scale", "1", "--duration", "10", "--holds", "2,3",
                                  "--seed", "5"], in: dir)
        #expect(ring.width == 320 && ring.height == 320)
        let newest = ring[26, 203]
        #expect(ring[116, 293] == newest)
        #expect(ring[273, 242] != newest && ring[273, 242] != RGBA8(grey: 170) && ring[273, 242] != RGBA8(grey: 255))
        #expect(newest != RGBA8(grey: 170) && newest != RGBA8(grey: 255))
        #expect(ring[160, 20] == RGBA8(grey: 170))
        #expect(ring[160, 160] == RGBA8(grey: 255))
        let doubled = try Self.draw(["spark", "--size", "320", "--scale", "2", "--duration", "10", "--holds", "2,3",
                                     "--seed", "5"], in: dir, name: "2x.png")
        #expect(doubled.width == 640 && doubled[2 * 26 + 1, 2 * 203 + 1] == newest)
    }

    @Test(arguments: [
        (["larsbar", "--scale", "4"], "--scale"),
        (["larsbar", "--levels", "0.5"], "--levels"),
        (["larsbar", "--value", "1.5"], "--value"),
        (["larsbar", "--width", "10"], "--width"),
        (["larsbar", "--light-color", "nope"], "--light-color"),
        (["spark", "--holds", "2,-1"], "--holds"),
        (["spark", "--duration", "0"], "--duration"),
        (["spark", "--size", "20"], "--size"),
        (["rgb", "--color", "0.2,0.4"], "--color"),
        (["rgb", "--track", "purple"], "--track"),
    ])
    func badOptionsFailWithAUsageErrorNamingThem(arguments: [String], option: String) throws {
        let dir = try Self.temporaryDirectory("bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("never.png").path
        let r = try TiltdProcess.run(["draw"] + arguments + ["--out", out])
        #expect(r.status == 64, "\(r.stderr)")
        let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains(option), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func unwritableOutputNamesTheFileAndLeavesNothing() throws {
        let dir = try Self.temporaryDirectory("missing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("no-such-dir/ring.png").path
        let r = try TiltdProcess.run(["draw", "spark", "--out", out])
        #expect(r.status == 1)
        #expect(r.stderr.contains(out), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func renderTakesTheLightColour() throws {
        let dir = try Self.temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path
        var frames: [String: RGBAImage] = [:]
        for (name, extra) in [("plain", [String]()), ("white", ["--light-color", "FFFFFF"]),
                              ("amber", ["--light-color", "FFB000"])] {
            let out = dir.appendingPathComponent(name).path
            let r = try TiltdProcess.run(["render", recording, "--out", out, "--size", "48", "--fps", "2", "--quiet"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            frames[name] = try PNGReader.read(path: out + "/frame-000000.png")
        }
        #expect(frames["plain"] == frames["white"])
        #expect(frames["plain"] != frames["amber"])
        let tltilt = try TiltdProcess.run(["render", recording, "--out", dir.path, "--style", "tltilt",
                                           "--light-color", "FFB000"])
        #expect(tltilt.status == 64 && tltilt.stderr.contains("--light-color"))
    }
}
