import Foundation
import Images
@testable import Knob
import Platform
import Testing

/// `PNGWriter.write` replaces a file whole (temporary name, then rename):
/// regression for the truncated `frame-000036.png` a signal left behind.
@Suite(.timeLimit(.minutes(2))) struct PNGAtomicWriteTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltd-png-atomic-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aRewriteReplacesTheFileInsteadOfTruncatingIt() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/frame-000000.png"
        let first = RGBAImage.filled(width: 16, height: 16, with: RGBA8(grey: 10))
        try PNGWriter.write(first, to: path)
        // A reader holding the old file keeps reading a whole old PNG: the
        // new one is a different inode put in place by rename(2).
        let reader = open(path, O_RDONLY)
        #expect(reader >= 0)
        defer { close(reader) }
        var before = stat()
        fstat(reader, &before)
        try PNGWriter.write(.filled(width: 16, height: 16, with: RGBA8(grey: 200)), to: path)
        var after = stat()
        stat(path, &after)
        #expect(before.st_ino != after.st_ino)
        var old = [UInt8](repeating: 0, count: Int(before.st_size))
        #expect(pread(reader, &old, old.count, 0) == old.count)
        #expect(try PNGReader.decode(old) == first)
        #expect(try PNGReader.read(path: path)[0, 0] == RGBA8(grey: 200))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["frame-000000.png"])
    }

    @Test func aFailedWriteLeavesNeitherTheFileNorItsTemporary() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The target is a directory: rename(2) refuses to put a file over it.
        let path = directory + "/frame-000001.png"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: PNGError.self) {
            try PNGWriter.write(.filled(width: 8, height: 8, with: RGBA8(grey: 1)), to: path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["frame-000001.png"])
    }

    /// A rename over `/dev/null` replaced the device node with a regular
    /// file (as root); a path that is not a regular file is written in place.
    @Test func aPathThatIsNotARegularFileIsWrittenInPlaceNotReplaced() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stream.png"
        #expect(mkfifo(path, 0o600) == 0)
        // Held open read-write, so neither side's open(2) blocks and the
        // reader sees end-of-file once this is closed after the write,
        // whether or not the write reached the FIFO.
        let hold = open(path, O_RDWR)
        #expect(hold >= 0)
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        // The FIFO's reader: takes everything written until every writer closed.
        let reader = Task.detached { () -> [UInt8] in
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count <= 0 { return bytes }
                bytes += chunk[..<count]
            }
        }
        let image = RGBAImage.filled(width: 8, height: 8, with: RGBA8(grey: 77))
        try PNGWriter.write(image, to: path)
        close(hold)
        let received = await reader.value
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect((status.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced by a file")
        #expect(try PNGReader.decode(received) == image)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["stream.png"])
    }

    @Test func theTemporaryIsHiddenBesideTheTarget() {
        let temporary = FileReplacement.temporaryPath(for: "/a/b/frame-000007.png")
        #expect(temporary == "/a/b/.frame-000007.png.tmp-\(getpid())")
        #expect(FileReplacement.temporaryPath(for: "sheet.png") == ".sheet.png.tmp-\(getpid())")
    }

    /// In a directory others can write, a link planted
    /// at the predictable temporary name does not make tiltd write the file
    /// it points to.
    @Test func aLinkPlantedAtTheTemporaryNameIsNotFollowed() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/frame-000000.png"
        let victim = directory + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(symlink(victim, FileReplacement.temporaryPath(for: path)) == 0)
        try PNGWriter.write(.filled(width: 8, height: 8, with: RGBA8(grey: 99)), to: path)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        let written = try PNGReader.read(path: path)
        #expect(written.width == 8)
        // The planted link is left as it was, and no other temporary remains.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == [".frame-000000.png.tmp-\(getpid())", "frame-000000.png", "victim"], "\(names)")
    }
}
