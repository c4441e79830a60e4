import Foundation
import Glibc
import Images
import Knob
import Motion
import Platform
import SamplePath

/// Where `tiltd render` puts frames: numbered PNG files in a directory, or
/// a y4m stream to a file or stdout (written in large blocks with `write`).
public final class RenderOutput {
    private let format: RenderFormat
    private let directory: String
    private var y4m: Y4MWriter?
    private var descriptor: Int32 = -1
    private var ownsDescriptor = false
    private var buffer: [UInt8] = []
    private let streamName: String
    /// A y4m file is written under this hidden name and renamed by `finish()`
    /// (removed if the render fails), so the output is never a torn stream.
    private var temporaryPath: String?

    /// - Throws: `RenderError` naming the directory or file when it cannot
    ///   be created or opened.
    public init(format: RenderFormat, out: String?, width: Int, height: Int, fps: Int, background: RGBA8) throws {
        self.format = format
        switch format {
        case .png:
            directory = out!
            y4m = nil
            streamName = ""
            // `RenderTargets` has checked the path and its folder already.
            try OutputPath.makeDirectory(directory, role: .output)
            guard Posix.isWritable(directory) else {
                throw RenderError.directoryNotWritable(directory)
            }
        case .y4m:
            directory = ""
            let writer = Y4MWriter(width: width, height: height, framesPerSecond: fps, background: background)
            y4m = writer
            if let out, out != "-" {
                // A regular file is replaced whole; a device or FIFO
                // (/dev/null, a player's pipe) is written in place, never
                // renamed over (FileReplacement.isReplaceable).
                let replace = FileReplacement.isReplaceable(out)
                let fd: Int32
                if replace {
                    let temporary: (descriptor: Int32, path: String)
                    do { temporary = try FileReplacement.createTemporary(for: out) } catch {
                        throw RenderError.cannotOpen(path: out, reason: error.reason)
                    }
                    fd = temporary.descriptor
                    temporaryPath = temporary.path
                } else {
                    do { fd = try Posix.openForWriting(out) } catch {
                        throw RenderError.cannotOpen(path: out, reason: error.reason)
                    }
                    temporaryPath = nil
                }
                descriptor = fd
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
    public func pngPath(_ index: Int) -> String {
        let digits = String(index)
        return directory + "/frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    /// Writes one frame.
    public func write(_ frame: RGBAImage, index: Int) throws {
        switch format {
        case .png:
            do { try PNGWriter.write(frame, to: pngPath(index)) } catch { throw RenderError.cannotWritePNG(reason: "\(error)") }
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
            throw RenderError.cannotWriteStream(name: streamName, reason: FileDescriptorWriter.describe(failure))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes an output file.
    public func finish() throws {
        try flush()
        if ownsDescriptor, descriptor >= 0 {
            do { try Posix.closeAfterWriting(descriptor) } catch {
                throw RenderError.cannotFinish(name: streamName, reason: error.reason)
            }
            descriptor = -1
        }
        if let temporaryPath {
            do { try FileReplacement.commit(temporaryPath, as: streamName) } catch {
                throw RenderError.cannotFinish(name: streamName, reason: error.reason)
            }
            self.temporaryPath = nil
        }
    }

    deinit {
        if ownsDescriptor, descriptor >= 0 { Posix.close(descriptor) }
        if let temporaryPath { try? Posix.unlink(temporaryPath) }
    }

    /// One phrase telling the user where the frames are.
    public var whereToLook: String {
        switch format {
        case .png: return "frames in \(pngPath(0)) …"
        case .y4m: return "y4m stream on \(streamName) (play it with ffplay or mpv, or convert with ffmpeg -i FILE.y4m out.mp4)"
        }
    }
}

/// How `tiltd render` writes frames.
public enum RenderFormat: String, CaseIterable, Sendable {
    /// Numbered PNG files in a directory.
    case png
    /// One YUV4MPEG2 stream.
    case y4m
}

/// A render that cannot go on: which file or directory, and what is wrong.
public enum RenderError: Error, Sendable, Equatable {
    /// Frame files of an earlier render in the PNG directory.
    case staleFrames(directory: String, count: Int, first: String)
    /// The contact sheet's path is the output's (a directory of frames or a y4m file).
    case contactSheetIsOutput(sheet: String, out: String, outIsDirectory: Bool)
    /// The contact sheet's path is a folder above the output.
    case contactSheetAboveOutput(sheet: String, out: String)
    /// The contact sheet's path lies inside a y4m file's path.
    case contactSheetInsideStream(sheet: String, out: String)
    /// The contact sheet has a frame's name in the PNG directory.
    case contactSheetHasFrameName(sheet: String, out: String)
    /// An earlier frame could not be removed.
    case cannotRemoveFrame(path: String, reason: String)
    /// The recording has no readings.
    case noReadings(file: String)
    /// More frames than the limit (`explicit`: the limit was given, not one hour's).
    case tooManyFrames(file: String, frameCount: Int, fps: Int, limit: Int, explicit: Bool)
    /// The PNG directory cannot be written.
    case directoryNotWritable(String)
    /// The y4m output cannot be opened.
    case cannotOpen(path: String, reason: String)
    /// A PNG (a frame or the contact sheet) could not be written.
    case cannotWritePNG(reason: String)
    /// Writing the y4m stream failed.
    case cannotWriteStream(name: String, reason: String)
    /// Closing or renaming the y4m file into place failed.
    case cannotFinish(name: String, reason: String)
    /// The LARSBar slider's level file could not be read.
    case levelsFile(reason: String)
}
