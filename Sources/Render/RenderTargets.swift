import Foundation
import Glibc
import Motion
import Platform
import SamplePath

/// Every path `tiltd render` will write, checked before the first frame, so
/// a bad contact sheet or output path fails at once instead of after an hour
/// of frames; and the earlier frames in the frame directory.
///
/// Policy for a frame directory that already holds `frame-NNNNNN.png` files
/// (from an earlier render, perhaps at another frame rate): refused unless
/// `overwrite`, which removes exactly those files (and nothing else)
/// before the first new frame, so the directory never mixes two renders.
public struct RenderTargets: Sendable {
    /// Earlier frame files in the PNG directory (names only).
    public let staleFrames: [String]
    public let directory: String?

    /// - Throws: `RenderError` naming the path and what to do, or
    ///   `OutputPathError` (`OutputPath`'s rule: the frame directory may be
    ///   made, never a folder above it).
    public init(format: RenderFormat, out: String?, contactSheet: String?, overwrite: Bool) throws {
        // By name first: the clash is the problem to report, whatever exists on disk.
        if let contactSheet, let out, out != "-" || format == .png {
            try Self.checkApart(contactSheet: contactSheet, out: out, outIsDirectory: format == .png)
        }
        switch format {
        case .png:
            let directory = out!
            self.directory = directory
            try OutputPath.checkDirectory(directory, role: .output, purpose: "the PNG frames")
            if Posix.fileType(following: directory) == S_IFDIR {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                staleFrames = names.filter(Self.isFrameName).sorted()
                if !staleFrames.isEmpty, !overwrite {
                    throw RenderError.staleFrames(directory: directory, count: staleFrames.count, first: staleFrames[0])
                }
            } else {
                staleFrames = []
            }
        case .y4m:
            directory = nil
            staleFrames = []
            if let out, out != "-" { try OutputPath.checkFile(out, role: .output, example: "knob.y4m") }
        }
        if let contactSheet {
            // A sheet in the frame directory goes in the folder render makes.
            let inFrames = format == .png && out.map {
                Self.lexicalPath(OutputPath.parentPath(contactSheet)) == Self.lexicalPath($0)
            } ?? false
            try OutputPath.checkFile(contactSheet, role: .contactSheet, example: "contact-sheet.png",
                                     folderMadeByTiltd: inFrames)
        }
    }

    /// Refuses a contact sheet that the frames would clash with, checked by
    /// name before either exists: the same path as the output, a folder of
    /// the output (it must then be a directory), inside a y4m output (a file),
    /// or a frame's name in the PNG directory (the sheet would replace it).
    private static func checkApart(contactSheet: String, out: String, outIsDirectory: Bool) throws {
        let sheet = lexicalPath(contactSheet), frames = lexicalPath(out)
        if sheet == frames {
            throw RenderError.contactSheetIsOutput(sheet: contactSheet, out: out, outIsDirectory: outIsDirectory)
        }
        if frames.hasPrefix(sheet == "/" ? sheet : sheet + "/") {
            throw RenderError.contactSheetAboveOutput(sheet: contactSheet, out: out)
        }
        if !outIsDirectory, sheet.hasPrefix(frames == "/" ? frames : frames + "/") {
            throw RenderError.contactSheetInsideStream(sheet: contactSheet, out: out)
        }
        if outIsDirectory, OutputPath.parentPath(sheet) == frames, isFrameName(String(sheet.split(separator: "/").last ?? "")) {
            throw RenderError.contactSheetHasFrameName(sheet: contactSheet, out: out)
        }
    }

    /// `path` spelled one way, without touching the disk: repeated slashes,
    /// "." components and a trailing slash dropped ("./a//b/" is "a/b").
    static func lexicalPath(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// Removes the earlier frames (only with `overwrite`, see the type's note).
    public func removeStaleFrames() throws {
        guard let directory else { return }
        for name in staleFrames {
            do { try Posix.unlink(directory + "/" + name) } catch {
                throw RenderError.cannotRemoveFrame(path: directory + "/" + name, reason: error.reason)
            }
        }
    }

    /// `frame-` then at least six digits then `.png`: the names render writes.
    public static func isFrameName(_ name: String) -> Bool {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst(6).dropLast(4)
        return digits.count >= 6 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension RenderTargets {
    /// Contact sheet, frame limit and overwrite settings that do not go together.
    public enum OptionProblem: Error, Sendable, Equatable {
        /// Contact sheet cells outside 1…400.
        case cells(Int)
        /// Contact sheet columns outside 1…400.
        case columns(Int)
        /// Cells or columns without a contact sheet to shape.
        case shapeWithoutSheet
        /// A frame limit below 1.
        case maxFrames(Int)
        /// Overwriting with a format other than PNG frames.
        case overwriteWithoutPNG
    }

    /// Why the contact sheet, frame limit and overwrite settings do not go
    /// together, or nil.
    public static func optionProblem(contactSheet: String?, cells: Int?, columns: Int?, maxFrames: Int?,
                                     overwrite: Bool, format: RenderFormat) -> OptionProblem? {
        if let cells, !(1...400).contains(cells) { return .cells(cells) }
        if let columns, !(1...400).contains(columns) { return .columns(columns) }
        if contactSheet == nil, cells != nil || columns != nil { return .shapeWithoutSheet }
        if let maxFrames, maxFrames < 1 { return .maxFrames(maxFrames) }
        if overwrite, format != .png { return .overwriteWithoutPNG }
        return nil
    }
}
