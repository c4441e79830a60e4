import Foundation
import Testing
import TiltdTestSupport

/// One rule for every command's output paths (README, "Output paths"):
/// each is checked before anything is opened, and a folder that does not
/// exist is one error line naming the option, the path and the folder to
/// make, exit 1; tiltd makes no folder above the one named.
@Suite(.timeLimit(.minutes(15))) struct OutputPathCommandTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path
    static let missing = "/nonexistent-tiltd-folder"

    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var option: String
        var path: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["record", "--out", "\(missing)/walk.trace", "--count", "1"], option: "--out",
             path: "\(missing)/walk.trace"),
        Case(arguments: ["run", "--record", "\(missing)/walk.trace", "--count", "1"], option: "--record",
             path: "\(missing)/walk.trace"),
        Case(arguments: ["run", "--listen", "unix:\(missing)/t.sock", "--count", "1"], option: "--listen",
             path: "\(missing)/t.sock"),
        Case(arguments: ["replay", sweep, "--realtime", "--listen", "unix:\(missing)/t.sock"], option: "--listen",
             path: "\(missing)/t.sock"),
        Case(arguments: ["render", sweep, "--out", "\(missing)/frames", "--size", "16"], option: "--out",
             path: "\(missing)/frames"),
        Case(arguments: ["render", sweep, "--format", "y4m", "--out", "\(missing)/knob.y4m", "--size", "16"],
             option: "--out", path: "\(missing)/knob.y4m"),
        Case(arguments: ["render", sweep, "--format", "y4m", "--out", "/dev/null", "--size", "16",
                         "--contact-sheet", "\(missing)/sheet.png"], option: "--contact-sheet", path: "\(missing)/sheet.png"),
        Case(arguments: ["draw", "larsbar", "--out", "\(missing)/larsbar.png"], option: "--out", path: "\(missing)/larsbar.png"),
        Case(arguments: ["draw", "spark", "--out", "\(missing)/spark.png"], option: "--out", path: "\(missing)/spark.png"),
        Case(arguments: ["draw", "rgb", "--out", "\(missing)/rgb.png"], option: "--out", path: "\(missing)/rgb.png"),
        Case(arguments: ["serve", "--replay", sweep, "--port", "0", "--record-dir", "\(missing)/rings"],
             option: "--record-dir", path: "\(missing)/rings"),
    ]

    /// No device here: a command that opened one first would fail on it
    /// (`opening the IIO context …`) instead of naming the path.
    @Test(arguments: cases)
    func aMissingFolderIsOneLineNamingItBeforeAnythingOpens(_ c: Case) throws {
        let r = try TiltdProcess.run(c.arguments, timeout: 120)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "tiltd: error: \(c.option) \(c.path): there is no folder \(Self.missing); create it first "
            + "(mkdir -p \(Self.missing)) or choose another \(c.option)\n")
        #expect(r.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Self.missing))
    }

    /// With a device that would open, `record` still refuses the path first:
    /// no capture starts (no "reading …" line).
    @Test func recordChecksItsOutputBeforeOpeningTheDevice() throws {
        let r = try DeviceTestSupport.tiltd(["record", "--out", "\(Self.missing)/walk.trace", "--count", "8"],
                                            devices: ["buffered.umockdev"], script: "buffered.script")
        #expect(r.status == 1)
        #expect(!r.stderr.contains("reading "), "\(r.stderr)")
        #expect(r.stderr.hasPrefix("tiltd: error: --out \(Self.missing)/walk.trace: there is no folder"), "\(r.stderr)")
        let directory = try DeviceTestSupport.tiltd(["record", "--out", "/tmp", "--count", "8"],
                                                    devices: ["buffered.umockdev"], script: "buffered.script")
        #expect(directory.status == 1)
        #expect(directory.stderr == "tiltd: error: --out /tmp is a directory: give a file name such as /tmp/walk.trace\n")
    }

    /// The folder named may be made (render's frames, serve's ring); a
    /// file's folder must be there. A contact sheet among the frames goes
    /// in the folder render makes.
    @Test func theFolderNamedIsMadeButNotTheOnesAbove() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let render = try TiltdProcess.run(["render", Self.sweep, "--out", dir + "/frames", "--size", "16", "--fps", "5",
                                           "--contact-sheet", dir + "/frames/sheet.png", "--quiet"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/frames/sheet.png"))
        let draw = try TiltdProcess.run(["draw", "rgb", "--out", dir + "/rgb.png"])
        #expect(draw.status == 0 && FileManager.default.fileExists(atPath: dir + "/rgb.png"), "\(draw.stderr)")
    }

    /// y4m's 4:2:0 chroma needs even sides: refused before anything is
    /// written (ffmpeg refused the stream after tiltd exited 0).
    @Test func anOddY4MSizeIsRefusedUpFront() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try TiltdProcess.run(["render", Self.sweep, "--format", "y4m", "--size", "101", "--out", dir + "/knob.y4m"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("tiltd: error: --size 101 makes frames of 101 × 101 pixels; y4m's 4:2:0 chroma "
            + "needs even sides: give --size 100 or 102 (or PNG frames)\nUsage: tiltd render"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
