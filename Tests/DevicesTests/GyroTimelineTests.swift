@testable import Devices
import Testing

@Suite(.timeLimit(.minutes(2))) struct GyroTimelineTests {
    @Test func nothingBeforeTheFirstScan() {
        var timeline = GyroTimeline()
        let none = timeline.raw(at: 100)
        #expect(none == nil)
    }

    @Test func interpolatesBetweenTheScansEitherSide() throws {
        var timeline = GyroTimeline()
        timeline.append(timeNanoseconds: 1_000, raw: SIMD3(0, 10, -4))
        timeline.append(timeNanoseconds: 2_000, raw: SIMD3(10, 30, 4))
        let found = timeline.raw(at: 1_250)
        let merged = try #require(found)
        #expect(merged.merge == .interpolated)
        #expect(merged.raw == SIMD3(2.5, 15, -2))
    }

    /// After the newest scan (the next has not arrived) the newest is held;
    /// before the oldest (the gyro runs ahead) the oldest is.
    @Test(arguments: [(Int64(5_000), 2.0), (Int64(500), 1.0)])
    func holdsTheScanNearestWhenNotBetweenTwo(time: Int64, expected: Double) throws {
        var timeline = GyroTimeline()
        timeline.append(timeNanoseconds: 1_000, raw: SIMD3(repeating: 1))
        timeline.append(timeNanoseconds: 2_000, raw: SIMD3(repeating: 2))
        let found = timeline.raw(at: time)
        let merged = try #require(found)
        #expect(merged.raw == SIMD3(repeating: expected) && merged.merge == .held)
    }

    @Test func dropsScansNoLongerNeededAndKeepsLaterOnes() throws {
        var timeline = GyroTimeline()
        for index in 0..<5 { timeline.append(timeNanoseconds: Int64(index) * 1_000, raw: SIMD3(repeating: Double(index))) }
        let between = timeline.raw(at: 3_500)
        #expect(between?.raw == SIMD3(repeating: 3.5))
        #expect(timeline.count == 2)
        let exact = timeline.raw(at: 3_000)
        #expect(exact?.raw == SIMD3(repeating: 3))
    }

    @Test func aFullRingDropsTheOldestAndABackwardsTimestampStartsOver() throws {
        var timeline = GyroTimeline(capacity: 4)
        for index in 0..<6 { timeline.append(timeNanoseconds: Int64(index) * 1_000, raw: SIMD3(repeating: Double(index))) }
        #expect(timeline.count == 4)
        let oldest = timeline.raw(at: 0)
        #expect(oldest?.raw == SIMD3(repeating: 2) && oldest?.merge == .held)
        timeline.append(timeNanoseconds: 100, raw: SIMD3(repeating: 9))
        #expect(timeline.count == 1)
        #expect(timeline.newestNanoseconds == 100)
    }
}
