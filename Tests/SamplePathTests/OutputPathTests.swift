import Foundation
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
        try OutputPath.checkFile(dir + "/walk.trace", role: .output, example: "walk.trace")
        _ = FileManager.default.createFile(atPath: dir + "/old.trace", contents: Data("x".utf8))
        try OutputPath.checkFile(dir + "/old.trace", role: .output, example: "walk.trace")
        try OutputPath.checkFile("/dev/null", role: .output, example: "walk.trace")
        try OutputPath.checkFile("walk.trace", role: .output, example: "walk.trace")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["old.trace"])
    }

    @Test func aMissingFolderIsNamedWithWhatToDo() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: OutputPathError.noFolder(role: .output, path: dir + "/a/b/x.png", folder: dir + "/a/b")) {
            try OutputPath.checkFile(dir + "/a/b/x.png", role: .output, example: "x.png")
        }
        #expect(throws: OutputPathError.noFolder(role: .recordingDirectory, path: dir + "/a/rings", folder: dir + "/a")) {
            try OutputPath.checkDirectory(dir + "/a/rings", role: .recordingDirectory, purpose: "the recordings")
        }
        // The folder named itself may be missing: tiltd makes it.
        try OutputPath.checkDirectory(dir + "/rings", role: .recordingDirectory, purpose: "the recordings")
        try OutputPath.makeDirectory(dir + "/rings", role: .recordingDirectory)
        try OutputPath.makeDirectory(dir + "/rings", role: .recordingDirectory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["rings"])
    }

    @Test func aDirectoryWhereAFileGoesAndAFileWhereAFolderGoesAreRefused() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: OutputPathError.isADirectory(role: .output, path: dir, suggestion: dir + "/walk.trace")) {
            try OutputPath.checkFile(dir, role: .output, example: "walk.trace")
        }
        #expect(throws: OutputPathError.isADirectory(role: .output, path: dir + "/new/", suggestion: dir + "/new/x.png")) {
            try OutputPath.checkFile(dir + "/new/", role: .output, example: "x.png")
        }
        _ = FileManager.default.createFile(atPath: dir + "/f", contents: Data())
        #expect(throws: OutputPathError.folderNotADirectory(role: .output, path: dir + "/f/x.png", folder: dir + "/f")) {
            try OutputPath.checkFile(dir + "/f/x.png", role: .output, example: "x.png")
        }
        #expect(throws: OutputPathError.notADirectory(role: .recordingDirectory, path: dir + "/f",
                                                     purpose: "the recordings")) {
            try OutputPath.checkDirectory(dir + "/f", role: .recordingDirectory, purpose: "the recordings")
        }
        #expect(throws: OutputPathError.noFileName(role: .output, example: "walk.trace")) {
            try OutputPath.checkFile("", role: .output, example: "walk.trace")
        }
    }
}
