import Foundation
import Knob
import Motion
import Sensors

/// Where `tiltd render` puts frames: numbered PNG files in a directory, or
/// a y4m stream to a file or stdout (written in large blocks with `write`).
final class RenderOutput {
    private let format: RenderCommand.Format
    private let directory: String
    private var y4m: Y4MWriter?
    private var descriptor: Int32 = -1
    private var ownsDescriptor = false
    private var buffer: [UInt8] = []
    private let streamName: String
    /// A y4m file is written under this hidden name and renamed by `finish()`
    /// (removed if the render fails), so `--out` is never a torn stream.
    private var temporaryPath: String?

    /// - Throws: `RenderError` naming the directory or file when it cannot
    ///   be created or opened.
    init(format: RenderCommand.Format, out: String?, width: Int, height: Int, fps: Int, background: RGBA8) throws {
        self.format = format
        switch format {
        case .png:
            directory = out!
            y4m = nil
            streamName = ""
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw RenderError("--out \(directory) is a file, not a directory: give a directory for the PNG frames")
            }
            try RenderTargets.makeDirectories(directory, option: "--out")
            guard access(directory, W_OK) == 0 else {
                throw RenderError("output directory \(directory) is not writable: choose another --out or fix its permissions")
            }
        case .y4m:
            directory = ""
            let writer = Y4MWriter(width: width, height: height, framesPerSecond: fps, background: background)
            y4m = writer
            if let out, out != "-" {
                let temporary = PNGWriter.temporaryPath(for: out)
                let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard fd >= 0 else {
                    throw RenderError("cannot open \(out) for writing: \(String(cString: strerror(errno))); choose a writable --out")
                }
                descriptor = fd
                temporaryPath = temporary
                ownsDescriptor = true
                streamName = out
            } else {
                descriptor = STDOUT_FILENO
                streamName = "stdout"
            }
            buffer = writer.header
            buffer.reserveCapacity(writer.frameByteCount * 8 + 128)
        }
    }

    /// Path of frame `index` in the PNG directory.
    func pngPath(_ index: Int) -> String {
        let digits = String(index)
        return directory + "/frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    /// Writes one frame.
    func write(_ frame: RGBAImage, index: Int) throws {
        switch format {
        case .png:
            do { try PNGWriter.write(frame, to: pngPath(index)) } catch { throw RenderError("\(error)") }
        case .y4m:
            y4m!.appendFrame(frame, to: &buffer)
            // Flush about every 1 MiB: few system calls, little memory.
            if buffer.count >= 1 << 20 { try flush() }
        }
    }

    private func flush() throws {
        guard descriptor >= 0, !buffer.isEmpty else { return }
        let failure = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        if failure != 0 {
            throw RenderError("cannot write the y4m stream to \(streamName): \(FileDescriptorWriter.describe(failure))")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes an output file.
    func finish() throws {
        try flush()
        if ownsDescriptor, descriptor >= 0 {
            if close(descriptor) != 0 {
                throw RenderError("cannot finish writing \(streamName): \(String(cString: strerror(errno)))")
            }
            descriptor = -1
        }
        if let temporaryPath {
            guard rename(temporaryPath, streamName) == 0 else {
                throw RenderError("cannot finish writing \(streamName): \(String(cString: strerror(errno)))")
            }
            self.temporaryPath = nil
        }
    }

    deinit {
        if ownsDescriptor, descriptor >= 0 { close(descriptor) }
        if let temporaryPath { unlink(temporaryPath) }
    }

    /// One phrase telling the user where the frames are.
    var whereToLook: String {
        switch format {
        case .png: return "frames in \(pngPath(0)) …"
        case .y4m: return "y4m stream on \(streamName) (play it with ffplay or mpv, or convert with ffmpeg -i FILE.y4m out.mp4)"
        }
    }
}
