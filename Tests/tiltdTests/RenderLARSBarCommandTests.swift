import Foundation
import Images
import Knob
import Testing
import TiltdTestSupport

/// `tiltd render --control larsbar` through the built binary: the options
/// reach the render, and bad levels files and option mixes are refused in
/// one line naming the file, line or option.
@Suite(.timeLimit(.minutes(15))) struct RenderLARSBarCommandTests {
    static let recording = RenderCommandTests.recording

    static func folder() throws -> URL { URL(fileURLWithPath: try TestPaths.temporaryDirectory()) }

    @Test func rendersTheSliderFromALevelsJSONLinesFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let levels = folder.appendingPathComponent("levels.jsonl")
        try Data((#"{"t":0,"left":0.9,"right":0.2}"# + "\n").utf8).write(to: levels)
        let frames = folder.appendingPathComponent("frames").path
        let r = try TiltdProcess.run(["render", Self.recording, "--control", "larsbar", "--levels-file", levels.path,
                                      "--width", "100", "--scale", "1", "--value", "1", "--fps", "5", "--out", frames])
        #expect(r.status == 0, "\(r.stderr)")
        let count = try #require(RenderCommandTests.renderedFrames(r.stderr), "\(r.stderr)")
        #expect(r.stderr.contains("(100×44, 5 fps,") && r.stderr.contains("LARSBar slider, levels from \(levels.path)"),
                "\(r.stderr)")
        // The one record at 0 s is held over the 12 s trace, and the user is told.
        #expect(r.stderr.contains("the last levels are held"), "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasPrefix("frame-") }
        #expect(names.count == count)
        let last = try PNGReader.read(path: frames + "/" + names.sorted().last!)
        #expect(last.width == 100 && last.height == 44)
        #expect(last[0, 0] == RGBA8(r: 44, g: 48, b: 49))  // the body colour, opaque
    }

    @Test func badLevelsFilesAndOptionMixesAreRefusedInOneLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.jsonl")
        try Data("{\"t\":0,\"left\":0.5,\"right\":0.5}\nnot json\n".utf8).write(to: bad)
        let out = folder.appendingPathComponent("f").path
        let cases: [([String], String)] = [
            (["--control", "larsbar", "--levels-file", bad.path, "--out", out], "\(bad.path):2: not a JSON object"),
            (["--control", "larsbar", "--levels-file", folder.path + "/none.wav", "--out", out],
             "cannot read level file \(folder.path)/none.wav"),
            (["--control", "larsbar", "--out", out], "--control larsbar needs --levels-file"),
            (["--levels-file", bad.path, "--out", out], "--levels-file is for the LARSBar slider: add --control larsbar"),
            (["--control", "larsbar", "--levels-file", bad.path, "--style", "tltilt", "--out", out],
             "--style is for the knob's own frames"),
            (["--control", "larsbar", "--levels-file", bad.path, "--width", "101", "--scale", "1",
              "--out", out + ".y4m"], "y4m's 4:2:0 chroma needs an even width: give --width 100"),
        ]
        for (arguments, message) in cases {
            let r = try TiltdProcess.run(["render", Self.recording, "--fps", "5"] + arguments)
            #expect(r.status != 0 && r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out + "/frame-000000.png"), "\(arguments)")
        }
    }
}
