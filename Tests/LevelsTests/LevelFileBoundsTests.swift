import Foundation
@testable import Levels
import Testing

/// Level files whose headers or times are extreme: a header never sizes an allocation, a time is refused before a
/// real-time replay would wait for it, and audio below 144 Hz has levels.
@Suite(.timeLimit(.minutes(15))) struct LevelFileBoundsTests {
    /// A 16-bit PCM WAV file's bytes, its header saying `channels` and
    /// `rateHertz` whatever they are, with `frames` frames of `sample`.
    static func wav(channels: Int, rateHertz: UInt32, frames: Int, sample: Int16) -> Data {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func le16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        let blockAlign = UInt16(channels * 2)
        let format = le16(1) + le16(UInt16(channels)) + le32(rateHertz)
            + le32(rateHertz &* UInt32(blockAlign)) + le16(blockAlign) + le16(16)
        let data = [UInt8]((0..<(frames * channels)).flatMap { _ in le16(UInt16(bitPattern: sample)) })
        let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(UInt32(format.count)) + format
            + Array("data".utf8) + le32(UInt32(data.count)) + data
        return Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
    }

    @Test func anOggOfUnknownLengthIsAClearErrorNotACrash() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ogg = try ToneFile.make(in: folder, name: "tone.ogg", seconds: 1)
        // Cut off its last pages: libsndfile then gives frames = SF_COUNT_MAX.
        let whole = try Data(contentsOf: ogg)
        let cut = folder.appendingPathComponent("cut.ogg")
        try whole.prefix(whole.count * 3 / 4).write(to: cut)
        let file = try SoundFile(path: cut.path)
        #expect(file.frameCount == Int64.max)
        // libsndfile decodes nothing from it: said as such (it reserved SF_COUNT_MAX/306 records, SIGABRT).
        #expect(throws: LevelFileError.empty(path: cut.path)) { try LevelTrack.load(path: cut.path) }
        // The whole file still loads.
        #expect(try LevelTrack.load(path: ogg.path).records.count == 144)
    }

    @Test func aHeaderNeverSizesTheReservation() {
        #expect(LevelTrack.reservedRecords(frameCount: Int64.max, rateHertz: 44100) == LevelTrack.reservedRecordsLimit)
        #expect(LevelTrack.reservedRecords(frameCount: 44100, rateHertz: 44100) == 145)
        #expect(LevelTrack.reservedRecords(frameCount: 0, rateHertz: 44100) == 0)
    }

    @Test func thousandChannelsAtTwoGigahertzDecodeInBoundedMemory() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wide.wav")
        // A window of 2³¹−1 Hz / 144 frames × 1024 channels would be 61 GB of floats.
        try Self.wav(channels: 1024, rateHertz: UInt32(Int32.max), frames: 4, sample: 16384).write(to: file)
        let track = try LevelTrack.load(path: file.path)
        #expect(track.records.count == 1)
        #expect(abs(track.durationSeconds - 4 / Double(Int32.max)) < 1e-15)
        var smoother = LevelSmoother()
        #expect(track.records[0].left == smoother.update(meanSquare: 0.25))
    }

    /// Found by scripts/fuzz-levels.py: a header saying 0 Hz or 0 channels
    /// was blamed on the path and its permissions.
    @Test(arguments: [(0, UInt32(44100), "Channel count is zero"), (2, 0, "SF_INFO struct incomplete")])
    func aHeaderLibsndfileRefusesIsNotAudio(channels: Int, rateHertz: UInt32, says: String) throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.wav")
        try Self.wav(channels: channels, rateHertz: rateHertz, frames: 4, sample: 1).write(to: file)
        #expect {
            try LevelTrack.load(path: file.path)
        } throws: { error in
            guard case let .notAudio(path, reason)? = error as? LevelFileError else { return false }
            return path == file.path && reason.contains(says) && "\(error)".contains("give a WAV file")
        }
    }

    @Test func audioBelow144HertzStillGives144RecordsASecond() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("slow.wav").path
        // One second at 100 Hz: silent, then half scale from frame 50 on.
        let samples = (0..<100).map { $0 < 50 ? Float(0) : 0.5 }
        try WAVWriter.write(samples, channelCount: 1, sampleRateHertz: 100, to: path)
        let track = try LevelTrack.load(path: path)
        #expect(track.records.count == 144)
        #expect(abs(track.records[0].seconds - 1.0 / 144) < 1e-12)
        #expect(abs(track.durationSeconds - 1) < 1e-12)
        #expect(zip(track.records, track.records.dropFirst()).allSatisfy { $0.seconds < $1.seconds })
        // Window k shows frame ⌊k·100/144⌋: windows 0…71 frames 0…49 (silent), 72… the tone,
        // each window one update of the smoothing, as at 144 Hz and above.
        var smoother = LevelSmoother()
        for (k, record) in track.records.enumerated() {
            let expected = smoother.update(meanSquare: k * 100 / 144 < 50 ? 0 : 0.25)
            #expect(abs(record.left - expected) < 1e-3, "window \(k)")
            #expect(record.left == record.right)
        }
        #expect(track.records[143].left > 0.5)
    }

    @Test func oneHertzAudioHoldsEachFrameForASecond() throws {
        let folder = try ToneFile.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("one.wav").path
        try WAVWriter.write([0.5, 0.5, 0, 0, 0.5, 0.5], channelCount: 2, sampleRateHertz: 1, to: path)
        let track = try LevelTrack.load(path: path)
        #expect(track.records.count == 3 * 144)
        #expect(track.durationSeconds == 3)
        #expect(track.records[143].left > 0.5 && track.records[287].left == 0 && track.records[431].left > 0.5)
    }

    @Test(arguments: [
        (#"{"t":1e300,"left":0,"right":0}"#, 2, "t 1e+300"),
        (#"{"t":-1e300,"left":0,"right":0}"#, 1, "t -1e+300"),
        (#"{"t":10000000001,"left":0,"right":0}"#, 2, "t 10000000001.0"),
    ])
    func timesNoReplayCouldWaitForAreRefusedWithTheirLine(line: String, lineNumber: Int, shown: String) {
        let first = #"{"t":0,"left":0,"right":0}"#
        let text = lineNumber == 1 ? line + "\n" + first + "\n" : first + "\n" + line + "\n"
        let reason = "\(shown) is beyond ±10000000000 s (317 years): give seconds since the levels began"
        #expect(throws: LevelFileError.badLine(path: "x.jsonl", line: lineNumber, reason: reason)) {
            try LevelTrack.decodeJSONLines(Data(text.utf8), path: "x.jsonl")
        }
    }

    @Test func theLargestTimeAllowedLoads() throws {
        let text = #"{"t":-10000000000,"left":0,"right":0}"# + "\n" + #"{"t":1e10,"left":1,"right":1}"# + "\n"
        let track = try LevelTrack.decodeJSONLines(Data(text.utf8), path: "x.jsonl")
        #expect(track.durationSeconds == LevelTrack.maximumSeconds)
    }
}
