import Foundation
@testable import Levels
import Testing

@Suite(.timeLimit(.minutes(2))) struct ChannelLevelsJSONTests {
    @Test func writesFixedDecimalsWithoutTrailingZeros() {
        #expect(ChannelLevels(seconds: 1.2345678, left: 0.81234, right: 0).jsonLine
                == #"{"t":1.234568,"left":0.8123,"right":0}"# + "\n")
        #expect(ChannelLevels(seconds: 12, left: 1, right: 0.05).jsonLine
                == #"{"t":12,"left":1,"right":0.05}"# + "\n")
        #expect(ChannelLevels(seconds: 0.000001, left: 0.00005, right: 0.0001).jsonLine
                == #"{"t":0.000001,"left":0.0001,"right":0.0001}"# + "\n")
    }

    @Test func negativeAndNonFiniteTimesStayValidJSON() {
        #expect(ChannelLevels(seconds: -0.5, left: 0, right: 0).jsonLine == #"{"t":-0.5,"left":0,"right":0}"# + "\n")
        #expect(ChannelLevels(seconds: .nan, left: 0, right: 0).jsonLine == #"{"t":0,"left":0,"right":0}"# + "\n")
    }

    @Test func linesReadBackAsTheSameLevels() throws {
        let records = (0..<300).map { index in
            ChannelLevels(seconds: Double(index) / 144, left: Double(index % 17) / 16, right: Double(index % 5) / 4)
        }
        let text = records.map(\.jsonLine).joined()
        let track = try LevelTrack.decodeJSONLines(Data(text.utf8), path: "memory.jsonl")
        #expect(track.records.count == records.count)
        for (read, written) in zip(track.records, records) {
            // Written with 6 and 4 decimals.
            #expect(abs(read.seconds - written.seconds) <= 5e-7)
            #expect(abs(read.left - written.left) <= 5e-5)
            #expect(abs(read.right - written.right) <= 5e-5)
        }
    }
}
