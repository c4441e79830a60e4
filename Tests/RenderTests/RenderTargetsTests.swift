import Foundation
import Render
import SamplePath
import Testing
import TiltdTestSupport

/// `tiltd render`'s output checks, in process: frame names, the frame
/// limit's message, earlier frames refused or replaced, bad paths refused
/// before anything is written.
@Suite(.timeLimit(.minutes(2))) struct RenderTargetsTests {
    @Test func frameNamesAreSixOrMoreDigits() {
        #expect(RenderTargets.isFrameName("frame-000000.png"))
        #expect(RenderTargets.isFrameName("frame-1234567.png"))
        #expect(!RenderTargets.isFrameName("frame-12345.png"))
        #expect(!RenderTargets.isFrameName("frame-00000a.png"))
        #expect(!RenderTargets.isFrameName("frame-000000.png.tmp"))
        #expect(!RenderTargets.isFrameName("notes.txt"))
    }

    @Test func theFrameLimitMessageSaysWhatToPass() {
        let byDefault = optionText(RenderError.tooManyFrames(file: "long.trace", frameCount: 7202, fps: 2,
                                                             limit: 7200, explicit: false))
        #expect(byDefault.contains("7202 frames") && byDefault.contains("--max-frames 7202"))
        #expect(byDefault.contains("(one hour of frames)") && byDefault.contains("nothing was written"))
        let explicit = optionText(RenderError.tooManyFrames(file: "t", frameCount: 11, fps: 10, limit: 10, explicit: true))
        #expect(!explicit.contains("one hour"))
    }

    @Test func earlierFramesAreRefusedUnlessOverwriteThenOnlyThoseGo() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["frame-000000.png", "frame-000001.png", "notes.txt"] {
            _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("x".utf8))
        }
        #expect {
            try RenderTargets(format: .png, out: dir, contactSheet: nil, overwrite: false)
        } throws: { "\($0)".contains("2 frame files") && optionText($0).contains("--overwrite") }
        let targets = try RenderTargets(format: .png, out: dir, contactSheet: nil, overwrite: true)
        #expect(targets.staleFrames == ["frame-000000.png", "frame-000001.png"])
        try targets.removeStaleFrames()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["notes.txt"])
    }

    @Test func aDirectoryGivenAsAFileIsRefused() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect {
            try RenderTargets(format: .y4m, out: dir, contactSheet: nil, overwrite: false)
        } throws: { optionText($0).contains("--out \(dir) is a directory") }
        try FileManager.default.createDirectory(atPath: dir + "/sheets", withIntermediateDirectories: false)
        #expect {
            try RenderTargets(format: .png, out: dir + "/frames", contactSheet: dir + "/sheets", overwrite: false)
        } throws: { optionText($0).contains("--contact-sheet \(dir)/sheets is a directory") }
        // A name ending in a slash is a directory too, even one not there yet:
        // refused before any frame is made.
        #expect {
            try RenderTargets(format: .png, out: dir + "/frames", contactSheet: dir + "/missing/", overwrite: false)
        } throws: { optionText($0).contains("--contact-sheet \(dir)/missing/ is a directory")
                    && "\($0)".contains("\(dir)/missing/contact-sheet.png") }
        #expect {
            try RenderTargets(format: .y4m, out: dir + "/new/", contactSheet: nil, overwrite: false)
        } throws: { optionText($0).contains("--out \(dir)/new/ is a directory") }
        _ = FileManager.default.createFile(atPath: dir + "/file", contents: Data())
        #expect {
            try RenderTargets(format: .png, out: dir + "/file/frames", contactSheet: nil, overwrite: false)
        } throws: { "\($0)".contains("\(dir)/file is not a directory") }
    }

    @Test(arguments: [("x", ""), ("/x", "/"), ("a/b", "a"), ("a/b/", "a"), ("/", "/"), ("a//b", "a"),
                      ("x/", ""), ("/tmp/f/s", "/tmp/f"), ("//x", "/")])
    func theParentOfAPathIsItsFolder(path: String, parent: String) {
        #expect(OutputPath.parentPath(path) == parent)
    }

    /// A one-character last component crashed
    /// NSString.deletingLastPathComponent (SIGILL).
    @Test func oneCharacterNamesAreCheckedLikeAnyOther() throws {
        // Relative, and missing: the folder checked is the working directory, or the bare name.
        let free = try #require("qzjkvwxy".map(String.init).filter { !FileManager.default.fileExists(atPath: $0) }
            .prefix(2).map { $0 })
        try #require(free.count == 2, "every candidate name exists in the working directory")
        _ = try RenderTargets(format: .png, out: free[0], contactSheet: free[1], overwrite: false)
        _ = try RenderTargets(format: .y4m, out: free[0], contactSheet: nil, overwrite: false)
        #expect {
            try RenderTargets(format: .png, out: free[0] + "/frames", contactSheet: nil, overwrite: false)
        } throws: { optionText($0).contains("--out \(free[0])/frames: there is no folder \(free[0]);") }
        #expect {
            try RenderTargets(format: .png, out: free[0], contactSheet: free[1] + "/s", overwrite: false)
        } throws: { optionText($0).contains("--contact-sheet \(free[1])/s: there is no folder \(free[1]);") }
        #expect(!FileManager.default.fileExists(atPath: free[0]) && !FileManager.default.fileExists(atPath: free[1]))
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/f", contents: Data())
        #expect {
            try RenderTargets(format: .png, out: dir + "/f/x", contactSheet: nil, overwrite: false)
        } throws: { "\($0)".contains("\(dir)/f is not a directory") }
    }

    /// One rule for every output path (`OutputPath`): the frame folder
    /// named may be made, never a folder above it or above a file; the
    /// refusal names the option, the path and the folder to make, and
    /// nothing is created.
    @Test func missingFoldersAreRefusedNotMade() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try RenderTargets(format: .png, out: dir + "/frames", contactSheet: dir + "/sheet.png", overwrite: false)
        let refused: [(format: RenderFormat, out: String, sheet: String?, option: String, path: String)] = [
            (.png, dir + "/a/frames", nil, "--out", dir + "/a/frames"),
            (.y4m, dir + "/a/knob.y4m", nil, "--out", dir + "/a/knob.y4m"),
            (.png, dir + "/frames", dir + "/a/sheet.png", "--contact-sheet", dir + "/a/sheet.png"),
            (.y4m, dir + "/knob.y4m", dir + "/a/sheet.png", "--contact-sheet", dir + "/a/sheet.png"),
        ]
        for (format, out, sheet, option, path) in refused {
            #expect {
                try RenderTargets(format: format, out: out, contactSheet: sheet, overwrite: false)
            } throws: {
                optionText($0) == "\(option) \(path): there is no folder \(dir)/a; create it first (mkdir -p \(dir)/a) "
                    + "or choose another \(option)"
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test(arguments: [
        (RenderFormat.png, "frames", "frames", "is --out"),
        (.png, "frames", ".//frames", "is --out"),
        (.png, "frames/a", "frames", "is a folder of --out"),
        (.png, "frames", "frames/frame-000003.png", "has a frame's name"),
        (.y4m, "knob.y4m", "knob.y4m", "is --out"),
        (.y4m, "knob.y4m", "knob.y4m/sheet.png", "lies inside --out"),
    ])
    func aContactSheetTheFramesWouldClashWithIsRefusedFirst(format: RenderFormat, out: String, sheet: String,
                                                            says: String) throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = dir + "/" + out, sheetPath = sheet.hasPrefix("./") ? dir + sheet.dropFirst() : dir + "/" + sheet
        #expect {
            try RenderTargets(format: format, out: outPath, contactSheet: sheetPath, overwrite: false)
        } throws: { optionText($0).contains("--contact-sheet \(sheetPath) \(says)") && "\($0)".contains("give") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aContactSheetBesideOrAmongTheFramesIsFine() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try RenderTargets(format: .png, out: dir + "/frames", contactSheet: dir + "/frames/sheet.png",
                              overwrite: false)
        _ = try RenderTargets(format: .png, out: dir + "/frames", contactSheet: dir + "/frames.png", overwrite: false)
        _ = try RenderTargets(format: .y4m, out: dir + "/k.y4m", contactSheet: dir + "/k.png", overwrite: false)
        _ = try RenderTargets(format: .y4m, out: "-", contactSheet: dir + "/-", overwrite: false)
    }
}
