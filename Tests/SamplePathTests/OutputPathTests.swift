import Foundation
import Motion
import SamplePath
import Testing
import TiltdTestSupport

/// The one rule for every output path (`OutputPath`): tiltd creates the
/// file or folder named, never a folder above it, and says which folder to
/// make; a directory where a file goes, and a file where a directory goes,
/// are refused with a name to give instead.
@Suite(.timeLimit(.minutes(2))) struct OutputPathTests {
    @Test func aFileInAnExistingFolderOrADeviceIsAccepted() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try OutputPath.checkFile(dir + "/walk.trace", option: .out, example: "walk.trace")
        _ = FileManager.default.createFile(atPath: dir + "/old.trace", contents: Data("x".utf8))
        try OutputPath.checkFile(dir + "/old.trace", option: .out, example: "walk.trace")
        try OutputPath.checkFile("/dev/null", option: .out, example: "walk.trace")
        try OutputPath.checkFile("walk.trace", option: .out, example: "walk.trace")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["old.trace"])
    }

    @Test func aMissingFolderIsNamedWithWhatToDo() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: OutputPathError("\(.out) \(dir)/a/b/x.png: there is no folder \(dir)/a/b; create it first "
            + "(mkdir -p \(dir)/a/b) or choose another \(.out)")) {
            try OutputPath.checkFile(dir + "/a/b/x.png", option: .out, example: "x.png")
        }
        #expect(throws: OutputPathError("\(.recordDir) \(dir)/a/rings: there is no folder \(dir)/a; create it first "
            + "(mkdir -p \(dir)/a) or choose another \(.recordDir)")) {
            try OutputPath.checkDirectory(dir + "/a/rings", option: .recordDir, purpose: "the recordings")
        }
        // The folder named itself may be missing: tiltd makes it.
        try OutputPath.checkDirectory(dir + "/rings", option: .recordDir, purpose: "the recordings")
        try OutputPath.makeDirectory(dir + "/rings", option: .recordDir)
        try OutputPath.makeDirectory(dir + "/rings", option: .recordDir)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["rings"])
    }

    @Test func aDirectoryWhereAFileGoesAndAFileWhereAFolderGoesAreRefused() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: OutputPathError("\(.out) \(dir) is a directory: give a file name such as \(dir)/walk.trace")) {
            try OutputPath.checkFile(dir, option: .out, example: "walk.trace")
        }
        #expect(throws: OutputPathError("\(.out) \(dir)/new/ is a directory: give a file name such as \(dir)/new/x.png")) {
            try OutputPath.checkFile(dir + "/new/", option: .out, example: "x.png")
        }
        _ = FileManager.default.createFile(atPath: dir + "/f", contents: Data())
        #expect(throws: OutputPathError("\(.out) \(dir)/f/x.png: \(dir)/f is not a directory; choose another \(.out)")) {
            try OutputPath.checkFile(dir + "/f/x.png", option: .out, example: "x.png")
        }
        #expect(throws: OutputPathError("\(.recordDir) \(dir)/f is a file, not a directory: give a directory for "
            + "the recordings")) {
            try OutputPath.checkDirectory(dir + "/f", option: .recordDir, purpose: "the recordings")
        }
        #expect(throws: OutputPathError("\(.out) needs a file name, such as walk.trace")) {
            try OutputPath.checkFile("", option: .out, example: "walk.trace")
        }
    }
}
