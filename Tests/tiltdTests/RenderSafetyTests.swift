import Foundation
import Images
import Knob
import Testing
import TiltdTestSupport

/// `tiltd render`'s limits and file safety: the frame limit,
/// whole files on SIGINT/SIGTERM, earlier frames, output paths checked
/// before the first frame, contact-sheet options.
@Suite(.timeLimit(.minutes(15))) struct RenderSafetyTests {
    static let recording = RenderCommandTests.recording

    /// A fresh, empty temporary directory.
    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltd-render-safety-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    static func names(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    @Test(arguments: ["tiltd-trace 1\ns 0 0 0 9.81\ns 9000000000000000000 5 0 8\n",
                      "time_s,accel_x,accel_y,accel_z\n0,0,0,9.81\n8999999999,5,0,8\n"])
    func aTraceSpanningCenturiesIsRefusedNotACrash(_ text: String) throws {
        let dir = try Self.directory("huge")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("big.trace")
        try Self.write(text, to: input)
        let frames = dir.appendingPathComponent("d")
        let r = try TiltdProcess.run(["render", input.path, "--out", frames.path, "--size", "32"])
        #expect(r.status == 1, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("--max-frames") && r.stderr.contains("nothing was written"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: frames.path))
    }

    @Test func moreFramesThanTheLimitAreRefusedBeforeAnythingIsWritten() throws {
        let dir = try Self.directory("limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 100 s at 10 fps: 1,002 frames.
        let input = dir.appendingPathComponent("long.trace")
        try Self.write("tiltd-trace 1\ns 0 0 0 9.81\ns 100000000000 0 1 9.7\n", to: input)
        let frames = dir.appendingPathComponent("frames")
        let over = try TiltdProcess.run(["render", input.path, "--out", frames.path, "--size", "16", "--fps", "10",
                                         "--max-frames", "1001"])
        #expect(over.status == 1)
        #expect(over.stderr.contains("1002 frames") && over.stderr.contains("--max-frames 1002"), "\(over.stderr)")
        #expect(!FileManager.default.fileExists(atPath: frames.path))
        let exact = try TiltdProcess.run(["render", input.path, "--out", frames.path, "--size", "16", "--fps", "10",
                                          "--max-frames", "1002", "--quiet"])
        #expect(exact.status == 0, "\(exact.stderr)")
        #expect(Self.names(frames).count == 1002)
        // The default is one hour of frames: two hours at 1 fps is refused.
        let twoHours = dir.appendingPathComponent("two-hours.trace")
        try Self.write("tiltd-trace 1\ns 0 0 0 9.81\ns 7200000000000 0 1 9.7\n", to: twoHours)
        let y4m = dir.appendingPathComponent("out.y4m")
        let byDefault = try TiltdProcess.run(["render", twoHours.path, "--out", y4m.path, "--size", "16", "--fps", "1"])
        #expect(byDefault.status == 1)
        #expect(byDefault.stderr.contains("7202 frames") && byDefault.stderr.contains("one hour"), "\(byDefault.stderr)")
        #expect(!FileManager.default.fileExists(atPath: y4m.path))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsAfterWholeFilesAndSaysSo(_ signal: Int32) throws {
        let dir = try Self.directory("signal")
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = try SocketTiltdProcess(["render", Self.recording, "--out", dir.path, "--size", "1024",
                                              "--contact-sheet", dir.appendingPathComponent("sheet.png").path])
        #expect(process.waitFor { Self.names(dir).contains("frame-000002.png") }, "\(process.stderr)")
        #expect(process.stop(with: signal))
        #expect(process.process.terminationReason == .exit && process.process.terminationStatus == 0,
                "\(process.process.terminationStatus) \(process.stderr)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(process.stderr.contains("\(name): stopped after"), "\(process.stderr)")
        let names = Self.names(dir)
        #expect(!names.isEmpty)
        // Only whole frames: every file decodes, no temporaries, no half sheet.
        for name in names {
            #expect(RenderTargetsName.isFrame(name), "unexpected file \(name)")
            let image = try PNGReader.read(path: dir.appendingPathComponent(name).path)
            #expect(image.width == 1024)
        }
    }

    @Test func earlierFramesAreRefusedAndReplacedOnlyWithOverwrite() throws {
        let dir = try Self.directory("stale")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try TiltdProcess.run(["render", Self.recording, "--out", dir.path, "--size", "16", "--fps", "20"])
        #expect(first.status == 0, "\(first.stderr)")
        let firstCount = Self.names(dir).count
        try Self.write("keep me", to: dir.appendingPathComponent("notes.txt"))
        let refused = try TiltdProcess.run(["render", Self.recording, "--out", dir.path, "--size", "16", "--fps", "10"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--overwrite") && refused.stderr.contains("\(firstCount) frame files"),
                "\(refused.stderr)")
        #expect(Self.names(dir).count == firstCount + 1)
        let replaced = try TiltdProcess.run(["render", Self.recording, "--out", dir.path, "--size", "16", "--fps", "10",
                                             "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let count = try #require(RenderCommandTests.renderedFrames(replaced.stderr))
        #expect(count < firstCount)
        #expect(Self.names(dir).filter(RenderTargetsName.isFrame).count == count)
        #expect(Self.names(dir).contains("notes.txt"))
    }

    /// `--out x` crashed (SIGILL in Foundation), and a
    /// contact sheet at `--out` was refused only after every frame.
    @Test func aOneCharacterOutRendersAndASheetAtOutIsRefusedFirst() throws {
        let dir = try Self.directory("short")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Run from inside the folder: the names are relative, as typed.
        let short = try ExternalProgram.run("bash", ["-c", #"cd "$1" && exec "$2" render "$3" --out x --size 16 --fps 2 --quiet --contact-sheet s"#,
                                                     "bash", dir.path, TiltdProcess.binary.path, Self.recording],
                                            timeoutSeconds: 120)
        #expect(short.status == 0, "\(short.status) \(short.stderr)")
        #expect(Self.names(dir.appendingPathComponent("x")).contains("frame-000000.png"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("s").path))
        let clash = dir.appendingPathComponent("clash")
        let same = try TiltdProcess.run(["render", Self.recording, "--out", clash.path, "--size", "16",
                                         "--contact-sheet", clash.path])
        #expect(same.status == 1)
        #expect(same.stderr.contains("--contact-sheet \(clash.path) is --out"), "\(same.stderr)")
        #expect(!FileManager.default.fileExists(atPath: clash.path))
    }

    /// A y4m --out in a missing folder was checked as creatable,
    /// then could not be opened. Its folder must exist (README, "Output
    /// paths"): refused before anything is written, naming the folder.
    @Test func aY4MFileInAMissingFolderIsRefusedFirst() throws {
        let dir = try Self.directory("y4m-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("new/folder/knob.y4m")
        let r = try TiltdProcess.run(["render", Self.recording, "--format", "y4m", "--out", file.path, "--size", "16",
                                      "--fps", "2", "--quiet"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("there is no folder \(dir.path)/new/folder; create it first"), "\(r.stderr)")
        #expect(Self.names(dir).isEmpty)
    }

    @Test func everyOutputPathIsCheckedBeforeTheFirstFrame() throws {
        let dir = try Self.directory("paths")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames")
        // The contact sheet onto a directory.
        let sheets = dir.appendingPathComponent("sheets")
        try FileManager.default.createDirectory(at: sheets, withIntermediateDirectories: false)
        let onto = try TiltdProcess.run(["render", Self.recording, "--out", frames.path, "--size", "16",
                                         "--contact-sheet", sheets.path])
        #expect(onto.status == 1)
        #expect(onto.stderr.contains("--contact-sheet \(sheets.path) is a directory")
                && onto.stderr.contains("contact-sheet.png"), "\(onto.stderr)")
        #expect(!FileManager.default.fileExists(atPath: frames.path))
        // Under a regular file.
        let file = dir.appendingPathComponent("plain")
        try Self.write("x", to: file)
        let under = try TiltdProcess.run(["render", Self.recording, "--out", frames.path, "--size", "16",
                                          "--contact-sheet", file.path + "/sheet.png"])
        #expect(under.status == 1)
        #expect(under.stderr.contains("\(file.path) is not a directory"), "\(under.stderr)")
        #expect(!FileManager.default.fileExists(atPath: frames.path))
        // y4m onto a directory.
        let y4m = try TiltdProcess.run(["render", Self.recording, "--format", "y4m", "--out", dir.path, "--size", "16"])
        #expect(y4m.status == 1 && y4m.stderr.contains("is a directory"), "\(y4m.stderr)")
        // A missing folder for the contact sheet is refused, before any frame.
        let lost = try TiltdProcess.run(["render", Self.recording, "--out", frames.path, "--size", "16",
                                         "--contact-sheet", dir.appendingPathComponent("new/folder/sheet.png").path])
        #expect(lost.status == 1 && lost.stderr.contains("there is no folder \(dir.path)/new/folder"), "\(lost.stderr)")
        #expect(!FileManager.default.fileExists(atPath: frames.path))
        let sheet = dir.appendingPathComponent("sheet.png")
        let created = try TiltdProcess.run(["render", Self.recording, "--out", frames.path, "--size", "16", "--fps", "5",
                                            "--contact-sheet", sheet.path, "--columns", "2",
                                            "--contact-sheet-frames", "4"])
        #expect(created.status == 0, "\(created.stderr)")
        let image = try PNGReader.read(path: sheet.path)
        // Two columns of 16 px frames widened to their 12-character labels (47 px), 4 px spacing.
        #expect(image.width == 2 * 47 + 3 * 4)
        #expect(image.height == 2 * (16 + 14) + 3 * 4)
        // The labels are drawn: light pixels under the first frame.
        let labelRow = (4 + 16)..<(4 + 30)
        #expect(labelRow.contains { y in (4..<51).contains { x in image[x, y] == ContactSheet.labelColour } })
    }

    @Test func optionsThatCannotApplyOrAreNegativeAreRefused() throws {
        let sheetless = try TiltdProcess.run(["render", Self.recording, "--out", "/tmp/tiltd-never", "--contact-sheet-frames", "4"])
        #expect(sheetless.status == 64 && sheetless.stderr.contains("--contact-sheet FILE.png"), "\(sheetless.stderr)")
        let slider = try TiltdProcess.run(["render", Self.recording, "--out", "/tmp/tiltd-never", "--slider", "-0.5"])
        #expect(slider.status == 64 && slider.stderr.contains("--slider must be a value from 0 to 1, got -0.5"),
                "\(slider.stderr)")
        let overwrite = try TiltdProcess.run(["render", Self.recording, "--format", "y4m", "--out", "/tmp/tiltd-never.y4m",
                                              "--overwrite"])
        #expect(overwrite.status == 64 && overwrite.stderr.contains("--overwrite"), "\(overwrite.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/tiltd-never"))
    }
}

extension RenderSafetyTests {
    /// `--format y4m --out /dev/null` (as root) renamed a regular file over
    /// the device node; a path that is not a regular file is written in place.
    @Test func aY4MOutputThatIsAFIFOStaysAFIFO() async throws {
        let dir = try Self.directory("fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("player.y4m").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held read-write so no open(2) blocks; the reader sees end-of-file once
        // tiltd has exited and this is closed, whatever tiltd did with the path.
        let hold = open(fifo, O_RDWR)
        let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(hold >= 0 && descriptor >= 0)
        _ = fcntl(descriptor, F_SETFL, 0)
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
        let r = try TiltdProcess.run(["render", Self.recording, "--format", "y4m", "--size", "16", "--fps", "2",
                                      "--out", fifo])
        close(hold)
        let received = await reader.value
        #expect(r.status == 0, "\(r.stderr)")
        var status = stat()
        #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        #expect(received.starts(with: Array("YUV4MPEG2 W16 H16".utf8)), "the stream went elsewhere")
        #expect(Self.names(dir) == ["player.y4m"])
    }
}

/// The frame names render writes (mirrors RenderTargets.isFrameName, which
/// lives in the executable).
enum RenderTargetsName {
    static func isFrame(_ name: String) -> Bool {
        name.hasPrefix("frame-") && name.hasSuffix(".png") && name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber)
    }
}
