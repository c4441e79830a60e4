import Foundation
import TiltdTestSupport

/// Audio files made with sox for the tests, in a folder removed afterwards.
struct ToneFile {
    /// `sox -n -r 44100 -c 2 FILE synth SECONDS sine 440 vol VOLUME [remix …]`:
    /// a 440 Hz stereo sine of peak `volume`; `leftOnly` silences the right channel.
    static func make(in folder: URL, name: String, seconds: Double, volume: Double = 0.5,
                     leftOnly: Bool = false, channels: Int = 2) throws -> URL {
        let file = folder.appendingPathComponent(name)
        var arguments = ["-n", "-r", "44100", "-c", String(channels), file.path,
                         "synth", String(seconds), "sine", "440", "vol", String(volume)]
        if leftOnly { arguments += ["remix", "1", "0"] }
        let result = try ExternalProgram.run("sox", arguments)
        guard result.status == 0 else { throw SoxFailure(message: result.stderr) }
        return file
    }

    struct SoxFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "sox failed: \(message)" }
    }

    /// A fresh temporary folder.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("levels-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
