import Foundation
@testable import Levels
import Testing

/// Level files: WAV through libsndfile (per 1/144 s window) and levels JSON Lines.
@Suite(.timeLimit(.minutes(15))) struct LevelTrackTests {
    /// A 0.5-peak sine's mean square is 0.125: 10·log10(0.125) = −9.03 dB → 0.8495.
    static let halfScaleSineLevel = 1 + 10 * log10(0.125) / 60

    @Test func leftOnlyWAVLightsOnlyTheLeftAt144UpdatesPerSecond() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = try ToneFile.make(in: folder, name: "left.wav", seconds: 1, leftOnly: true)
        let track = try LevelTrack.load(path: wav.path)
        // 44100 frames in windows of 44100/144 = 306.25 frames: exactly 144 windows.
        #expect(track.records.count == 144)
        #expect(abs(track.durationSeconds - 1) < 1e-9)
        #expect(abs(track.records[0].seconds - 306.0 / 44100) < 1e-9)
        let settled = track.records[100...]
        // sox's 16-bit samples: a mean square within 0.1 % of 0.125 moves the level by < 1e-4.
        #expect(settled.allSatisfy { abs($0.left - Self.halfScaleSineLevel) < 1e-3 })
        #expect(track.records.allSatisfy { $0.right == 0 })
        // Rising from silence follows the smoothing: the first window is still dark.
        #expect(track.records[0].left == 0)
        #expect(track.records[10].left > 0.7)
    }

    @Test func monoWAVDrivesBothChannels() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = try ToneFile.make(in: folder, name: "mono.wav", seconds: 0.5, volume: 0.9, channels: 1)
        let track = try LevelTrack.load(path: wav.path)
        #expect(track.records.count == 72)
        let last = try #require(track.records.last)
        #expect(last.left == last.right)
        // A 0.9-peak sine: 10·log10(0.81/2) = −3.93 dB → 0.9346.
        #expect(abs(last.left - (1 + 10 * log10(0.405) / 60)) < 1e-3)
    }

    @Test func levelsAtATimeHoldTheLatestRecord() {
        let track = LevelTrack(records: [ChannelLevels(seconds: 1, left: 0.2, right: 0.3),
                                         ChannelLevels(seconds: 2, left: 0.6, right: 0.7)])
        #expect(track.levels(atSeconds: 0.5) == ChannelLevels(seconds: 0.5, left: 0, right: 0))
        #expect(track.levels(atSeconds: 1) == ChannelLevels(seconds: 1, left: 0.2, right: 0.3))
        #expect(track.levels(atSeconds: 1.99) == ChannelLevels(seconds: 1.99, left: 0.2, right: 0.3))
        #expect(track.levels(atSeconds: 5) == ChannelLevels(seconds: 5, left: 0.6, right: 0.7))
    }

    @Test func jsonLinesFileLoadsSkippingBlankLinesAndExtraFields() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("levels.jsonl")
        try Data("""
            {"t":0,"left":0.1,"right":0.2}

            {"t":0.5,"left":1,"right":0,"note":"later fields are ignored"}
            {"t":0.5,"left":0.25,"right":0.75}

            """.utf8).write(to: file)
        let track = try LevelTrack.load(path: file.path)
        #expect(track.records == [ChannelLevels(seconds: 0, left: 0.1, right: 0.2),
                                  ChannelLevels(seconds: 0.5, left: 1, right: 0),
                                  ChannelLevels(seconds: 0.5, left: 0.25, right: 0.75)])
    }

    @Test(arguments: [
        (#"{"t":0,"left":0.1}"#, "no \"right\" field"),
        (#"{"t":0,"left":"loud","right":0}"#, "\"left\" is not a number"),
        (#"{"t":0,"left":1.5,"right":0}"#, "left 1.5 is outside 0…1"),
        (#"[1,2,3]"#, "not a JSON object"),
        (#"{"t":-1,"left":0,"right":0}"#, "t -1.0 goes back before 0.0"),
    ])
    func badSecondLineIsNamedWithItsReason(line: String, reason: String) {
        let text = #"{"t":0,"left":0,"right":0}"# + "\n" + line + "\n"
        #expect(throws: LevelFileError.badLine(path: "x.jsonl", line: 2, reason: reason)) {
            try LevelTrack.decodeJSONLines(Data(text.utf8), path: "x.jsonl")
        }
    }

    @Test func errorsNameTheFileAndWhatToDo() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.wav").path
        #expect {
            try LevelTrack.load(path: missing)
        } throws: { error in
            guard case .unreadable(missing, _)? = error as? LevelFileError else { return false }
            return "\(error)".contains(missing) && "\(error)".contains("check the path")
        }
        let text = folder.appendingPathComponent("text.wav")
        try Data("not audio at all\n".utf8).write(to: text)
        #expect {
            try LevelTrack.load(path: text.path)
        } throws: { error in
            guard case .notAudio? = error as? LevelFileError else { return false }
            return "\(error)".hasPrefix("\(text.path) is not audio") && "\(error)".contains("give a WAV file")
        }
        let empty = folder.appendingPathComponent("empty.jsonl")
        try Data("\n\n".utf8).write(to: empty)
        #expect(throws: LevelFileError.empty(path: empty.path)) { try LevelTrack.load(path: empty.path) }
    }
}
