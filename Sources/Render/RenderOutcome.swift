import Foundation
import Motion

/// How a render ended.
public struct RenderOutcome: Sendable, Equatable {
    public var framesWritten: Int
    public var frameCount: Int
    /// False when a shutdown (a signal) stopped it between two frames.
    public var finished: Bool
    /// One phrase saying where the frames are.
    public var whereToLook: String
    /// Frame size in pixels.
    public var frameWidth: Int, frameHeight: Int
}

extension RenderOutcome {
    /// The line after a finished render: how many frames of what size,
    /// what they show, from how many states, and where they are.
    public func summary(settings: RenderSettings, stateCount: Int) -> String {
        let seconds = Double(frameCount) / Double(settings.framesPerSecond)
        let what = settings.larsBar.map { "LARSBar slider, levels from \($0.levelsFile)" }
            ?? "\(settings.style.rawValue) style"
        var line = "rendered \(frameCount) frames (\(frameWidth)×\(frameHeight), \(settings.framesPerSecond) fps, "
            + String(format: "%.1f s", seconds) + ", \(what)) from \(Counted.text(stateCount, "state")); " + whereToLook
        if let contactSheet = settings.contactSheet { line += "; contact sheet: \(contactSheet)" }
        return line
    }

    /// The line after a render a signal stopped (`signalName`, or a shutdown).
    public func stopNotice(signalName: String?, contactSheet: String?) -> String {
        let sheetNote = contactSheet == nil ? "" : " (no contact sheet: the render did not finish)"
        return "\(signalName ?? "shutdown"): stopped after \(framesWritten) of \(frameCount) frames; "
            + "every file written is whole\(sheetNote)"
    }
}
