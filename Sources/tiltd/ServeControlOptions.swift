import ArgumentParser
import Foundation
import Glibc
import Motion
import Streaming
import Web

/// `serve`'s options for the page's controls (docs/controls.md): the
/// recording ring (`--record-dir DIR`, `--record-limit SECONDS`) and
/// whether viewers may change the light's colour (`--interactive`; the
/// starting colour is `--light-color`, `LightColourOptions`).
struct ServeControlOptions: ParsableArguments {
    @Option(name: .customLong("record-dir"), help: ArgumentHelp(
        "Show the recording ring: holding it on the page records the motion into a trace in this directory.",
        valueName: "dir"))
    var recordDirectory: String?

    @Option(name: .customLong("record-limit"), parsing: .unconditional, help: ArgumentHelp(
        "With --record-dir: the longest recording, the ring's full circle, in seconds (1…600; default 45).",
        valueName: "seconds"))
    var recordLimit: Double?

    @Flag(help: "Let viewers set the light's colour with the page's sliders (otherwise they only show it).")
    var interactive = false

    static let limitRange = 1.0...600.0

    func validate() throws {
        if let recordLimit {
            guard recordDirectory != nil else {
                throw ValidationError("--record-limit \(recordLimit) sets how long the ring records: give --record-dir DIR too")
            }
            guard recordLimit.isFinite, Self.limitRange.contains(recordLimit) else {
                throw ValidationError("--record-limit \(recordLimit): give 1 to 600 seconds")
            }
        }
        if let recordDirectory { try Self.checkDirectory(recordDirectory) }
    }

    /// A directory the ring can record into: it exists and we may create files in it.
    static func checkDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("--record-dir \(path): no such directory; create it first (mkdir -p \(path))")
        }
        guard isDirectory.boolValue else {
            throw ValidationError("--record-dir \(path) is a file: give a directory for the recordings")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw ValidationError("--record-dir \(path): cannot create files there (\(String(cString: strerror(errno)))); "
                + "give a directory you can write to")
        }
    }

    /// The ring's recorder publishing on the page's `ring` channel, or nil without --record-dir.
    ///
    /// - Parameter header: the trace header: the replayed recording's, or
    ///   what is known of the device.
    func makeRecorder(channels: WebChannelFeed, header: TraceHeader) -> WebRingRecorder? {
        guard let recordDirectory else { return nil }
        return WebRingRecorder(directory: recordDirectory, limitSeconds: recordLimit ?? 45, header: header,
                               logger: TiltdLog.logger) { json in channels.post("ring", json: json) }
    }
}

/// The ring records every reading the serve's sample run takes.
extension WebRingRecorder: ReadingTap {
    public func take(_ reading: Reading) { record(reading) }
}
