import Foundation
import Images
import Knob
import Testing
import TiltdTestSupport

/// `tiltd render` end to end, through the built binary.
@Suite(.timeLimit(.minutes(15))) struct RenderCommandTests {
    static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    static func temporaryDirectory(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-render-\(name)-\(getpid())")
    }

    /// The frame count the summary line on stderr reports.
    static func renderedFrames(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: #"rendered [0-9]+ frames"#, options: .regularExpression) else { return nil }
        return Int(stderr[range].split(separator: " ")[1])
    }

    @Test func writesNumberedPNGFramesAndAContactSheet() throws {
        let dir = Self.temporaryDirectory("png")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sheet = dir.appendingPathComponent("sheet.png").path
        let r = try TiltdProcess.run(["render", Self.recording, "--out", dir.path, "--size", "32", "--fps", "10",
                                      "--contact-sheet", sheet, "--contact-sheet-frames", "6"])
        #expect(r.status == 0, "\(r.stderr)")
        let count = try #require(Self.renderedFrames(r.stderr), "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("frame-") }
        #expect(files.count == count)
        let first = try PNGReader.read(path: dir.appendingPathComponent("frame-000000.png").path)
        #expect(first.width == 32 && first.height == 32)
        #expect(first[16, 16].a == 255)  // the knob, opaque
        #expect(first[0, 0].a == 0)      // the transparent margin
        let contact = try PNGReader.read(path: sheet)
        #expect(contact.width == 3 * 47 + 4 * 4)  // 6 cells: 3 × 2, widened to their 12-character labels
        #expect(r.stderr.contains(dir.path))     // tells the user where to look
    }

    @Test func writesAY4MStreamWithHeaderAndWholeFrames() throws {
        let dir = Self.temporaryDirectory("y4m")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("knob.y4m").path
        let r = try TiltdProcess.run(["render", Self.recording, "--format", "y4m", "--out", out, "--size", "30",
                                      "--fps", "10", "--style", "tltilt", "--background", "203040"])
        #expect(r.status == 0, "\(r.stderr)")
        let count = try #require(Self.renderedFrames(r.stderr), "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let header = "YUV4MPEG2 W30 H30 F10:1 Ip A1:1 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED\n"
        #expect(data.prefix(header.utf8.count) == Data(header.utf8))
        #expect(data.count == header.utf8.count + count * (6 + 30 * 30 + 2 * 15 * 15))
    }

    @Test func outEndingInY4MImpliesTheFormat() throws {
        let dir = Self.temporaryDirectory("implied")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("knob.y4m").path
        let r = try TiltdProcess.run(["render", Self.recording, "--out", out, "--size", "16", "--fps", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(data.starts(with: Data("YUV4MPEG2 W16 H16 F5:1".utf8)))
    }

    /// ffmpeg on PATH, if any. scripts/test.sh installs it (scripts/setup.sh
    /// test) and sets TILTD_REQUIRE_FFMPEG=1, so there the check below runs
    /// or fails; a bare `swift test` without ffmpeg reports it skipped.
    static let ffmpeg: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { "\($0)/ffmpeg" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let ffmpegRequired = ProcessInfo.processInfo.environment["TILTD_REQUIRE_FFMPEG"] == "1"

    /// The knob and the LARSBar slider (`--control larsbar`).
    @Test(.enabled(if: ffmpeg != nil || ffmpegRequired, "ffmpeg is not installed"), arguments: [false, true])
    func ffmpegReadsEveryFrameOfTheStream(larsBar: Bool) throws {
        let ffmpeg = try #require(Self.ffmpeg, "TILTD_REQUIRE_FFMPEG=1 but ffmpeg is not on PATH: run scripts/setup.sh test")
        let dir = Self.temporaryDirectory("ffmpeg-\(larsBar)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frames.y4m").path
        var arguments = ["render", Self.recording, "--out", out, "--fps", "10"]
        if larsBar {
            let levels = dir.appendingPathComponent("levels.jsonl")
            try Data((#"{"t":0,"left":0.7,"right":0.3}"# + "\n").utf8).write(to: levels)
            arguments += ["--control", "larsbar", "--levels-file", levels.path, "--width", "60", "--scale", "1"]
        } else {
            arguments += ["--size", "22"]
        }
        let r = try TiltdProcess.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let count = try #require(Self.renderedFrames(r.stderr))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-nostdin", "-i", out, "-f", "null", "-"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("yuv420p"), "\(text)")
        #expect(text.contains("frame=  \(count) ") || text.contains("frame= \(count) ") || text.contains("frame=\(count) "),
                "ffmpeg should read \(count) frames: \(text)")
    }

    @Test func rejectsBadArgumentsInOneLine() throws {
        let size = try TiltdProcess.run(["render", Self.recording, "--out", "/tmp/x", "--size", "8"])
        #expect(size.status != 0 && size.stderr.contains("--size"), "\(size.stderr)")
        let colour = try TiltdProcess.run(["render", Self.recording, "--out", "/tmp/x", "--background", "grey"])
        #expect(colour.status != 0 && colour.stderr.contains("--background"), "\(colour.stderr)")
        let noOut = try TiltdProcess.run(["render", Self.recording])
        #expect(noOut.status != 0 && noOut.stderr.contains("--out"), "\(noOut.stderr)")
    }

    @Test func unwritableOutputDirectoryIsNamed() throws {
        let r = try TiltdProcess.run(["render", Self.recording, "--out", "/proc/tiltd-frames", "--size", "16"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("/proc/tiltd-frames"), "\(r.stderr)")
    }
}
