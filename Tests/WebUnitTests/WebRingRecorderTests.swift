import Controls
import Foundation
import Logging
import Motion
import Synchronization
import Testing
import TiltdTestSupport
import Traces
@testable import Web

/// The page's recording ring on the server: what a hold writes, when a
/// recording ends, and what several viewers can do (docs/controls.md).
@Suite(.timeLimit(.minutes(2))) struct WebRingRecorderTests {
    /// A recorder into a fresh directory, and the ring fields it published.
    static func recorder(limit: Double = 45, keep: Int = WebRingRecorder.defaultKeep,
                         maximumMebibytes: Int = WebRingRecorder.defaultMaximumMebibytes,
                         in given: String? = nil, clock: WebRingClock = .system()) throws -> (WebRingRecorder, String, Published) {
        let directory = try given ?? TestPaths.temporaryDirectory()
        let published = Published()
        let recorder = WebRingRecorder(directory: directory, limitSeconds: limit, keep: keep, maximumMebibytes: maximumMebibytes,
                                       header: TraceHeader(tiltdVersion: "test", extra: ["recorded-from": "test"]),
                                       logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                       clock: clock) { json in
            published.texts.withLock { $0.append(json) }
        }
        return (recorder, directory, published)
    }

    static func reading(_ index: Int) -> Reading {
        Reading(timestampNanoseconds: Int64(index) * 10_000_000, acceleration: SIMD3(0.01 * Double(index), 0, 9.81))
    }

    static func files(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test func holdsAreRecordedIntoOneTraceWithAGapMarkBetweenThem() async throws {
        let (recorder, directory, _) = try Self.recorder()
        recorder.record(Self.reading(0))  // not held: not recorded
        recorder.press(by: 1)
        for i in 1...5 { recorder.record(Self.reading(i)) }
        recorder.release(by: 1)
        recorder.record(Self.reading(6))  // released: not recorded
        recorder.press(by: 1)
        for i in 7...9 { recorder.record(Self.reading(i)) }
        recorder.release(by: 1)
        // Still open: under its hidden partial name only.
        #expect(Self.files(directory).count == 1 && Self.files(directory)[0].hasSuffix(".partial"))
        recorder.finish(by: 2)
        await recorder.completed()
        let name = try #require(recorder.offered.last)
        #expect(Self.files(directory) == [name], "renamed, nothing partial left")
        let trace = try Recording.load(path: directory + "/" + name)
        #expect(trace.readings.map(\.timestampNanoseconds) == [1, 2, 3, 4, 5, 7, 8, 9].map { Int64($0) * 10_000_000 })
        #expect(trace.gaps.count == 1 && trace.gaps[0].readingIndex == 5 && trace.gaps[0].reason.contains("hold 2"),
                "\(trace.gaps)")
        #expect(trace.header?.extra["recorded-from"] == "test")
        // A finished ring takes no presses until a reset.
        recorder.press(by: 1)
        #expect(recorder.ring.segments.count == 2 && !recorder.ring.isHeld)
    }

    /// A clock the test moves, whose timers run when it passes their time.
    final class SteppedClock: Sendable {
        private struct State {
            var now = Duration.zero
            var timers: [(at: Duration, action: @Sendable () -> Void)] = []
        }
        private let state = Mutex(State())

        var clock: WebRingClock {
            WebRingClock(now: { [self] in state.withLock { $0.now } },
                         schedule: { [self] delay, action in state.withLock { $0.timers.append(($0.now + delay, action)) } })
        }

        func advance(by step: Duration) {
            let due = state.withLock { state -> [@Sendable () -> Void] in
                state.now += step
                let now = state.now
                defer { state.timers.removeAll { $0.at <= now } }
                return state.timers.filter { $0.at <= now }.map(\.action)
            }
            for action in due { action() }
        }
    }

    @Test func theLimitEndsARecordingOnTimeWithoutAnotherReading() async throws {
        let stepped = SteppedClock()
        let (recorder, directory, published) = try Self.recorder(limit: 0.3, clock: stepped.clock)
        recorder.press(by: 1)
        recorder.record(Self.reading(1))
        recorder.record(Self.reading(2))
        // No more readings: the limit's timer completes the ring and names the file, on time.
        stepped.advance(by: .milliseconds(299))
        #expect(recorder.offered.isEmpty && !recorder.ring.isComplete)
        stepped.advance(by: .milliseconds(1))
        await recorder.completed()
        #expect(!recorder.offered.isEmpty)
        #expect(recorder.ring.isComplete)
        #expect(abs(recorder.ring.total - 1) < 1e-12)
        let name = try #require(recorder.offered.last)
        #expect(try Recording.load(path: directory + "/" + name).readings.count == 2)
        #expect(published.texts.withLock { $0.last ?? "" }.contains(#""phase":"complete""#))
        // A hold's release after the limit changes nothing.
        recorder.release(by: 1)
        #expect(recorder.ring.segments.count == 1)
    }

    @Test func aSecondViewerSeesTheHoldButCannotTakeOrEndIt() throws {
        let (recorder, _, published) = try Self.recorder()
        recorder.press(by: 1)
        let revision = published.texts.withLock { $0.count }
        recorder.press(by: 2)
        recorder.release(by: 2)
        recorder.finish(by: 2)
        recorder.reset(by: 2)
        #expect(published.texts.withLock { $0.count } == revision, "nothing another viewer did changed the ring")
        #expect(recorder.ring.isHeld)
        #expect(published.texts.withLock { $0.last ?? "" }.contains(#""phase":"holding""#))
        // The holder leaving the page ends its hold.
        var input = WebInputControls()
        WebPageControls(recorder: recorder).enableInput(in: &input)
        input.viewerLeft(1)
        #expect(!recorder.ring.isHeld && recorder.ring.segments.count == 1)
        recorder.press(by: 2)
        #expect(recorder.ring.isHeld && recorder.ring.segments.count == 2)
    }

    @Test func shutdownWhileHeldKeepsEverySampleUnderTheFinalName() async throws {
        let (recorder, directory, _) = try Self.recorder()
        recorder.press(by: 1)
        for i in 1...50 { recorder.record(Self.reading(i)) }
        await recorder.shutdown()
        let name = try #require(recorder.offered.last)
        #expect(Self.files(directory) == [name])
        #expect(try Recording.load(path: directory + "/" + name).readings.count == 50)
    }

    @Test func resetFinishesTheOpenTraceAndStartsANewRing() async throws {
        let (recorder, directory, published) = try Self.recorder()
        recorder.press(by: 1)
        recorder.record(Self.reading(1))
        recorder.release(by: 1)
        recorder.reset(by: 3)
        await recorder.completed()
        #expect(recorder.offered.count == 1 && Self.files(directory) == recorder.offered)
        #expect(recorder.ring.segments.isEmpty)
        #expect(published.texts.withLock { $0.last ?? "" }.contains(#""generation":2"#))
        // A hold without a single reading leaves no file.
        recorder.press(by: 1)
        recorder.release(by: 1)
        recorder.finish(by: 1)
        await recorder.completed()
        #expect(Self.files(directory).count == 1)
        #expect(published.texts.withLock { $0.last ?? "" }.contains("nothing recorded"))
    }

    @Test func holdsAreBoundedAndGyroReadingsMakeAVersion2Trace() async throws {
        let (recorder, directory, _) = try Self.recorder()
        for _ in 0..<(WebRingRecorder.maximumHolds + 5) {
            recorder.press(by: 1)
            recorder.release(by: 1)
        }
        #expect(recorder.ring.segments.count == WebRingRecorder.maximumHolds)
        recorder.reset(by: 1)
        recorder.press(by: 1)
        recorder.record(Reading(timestampNanoseconds: 5, acceleration: SIMD3(0, 0, 9.81), rotationRate: SIMD3(0.1, 0, 0)))
        recorder.release(by: 1)
        recorder.finish(by: 1)
        await recorder.completed()
        let trace = try Recording.load(path: directory + "/" + (try #require(recorder.offered.last)))
        #expect(trace.header?.version == 2 && trace.readings.first?.rotationRate == SIMD3(0.1, 0, 0))
    }

    @Test func theRingFieldIsJSONWithTheSegmentsOldestFirst() throws {
        let (recorder, _, published) = try Self.recorder(limit: 10)
        recorder.press(by: 1)
        recorder.release(by: 1)
        recorder.press(by: 1)
        let json = try #require(published.texts.withLock { $0.last })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["phase"] as? String == "holding")
        #expect(object["duration"] as? Double == 10)
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.count == 2)
        #expect(segments.allSatisfy { ($0["colour"] as? String)?.count == 7 })
        #expect(object["download"] is NSNull)
    }
}

/// The ring's JSON texts a recorder published, oldest first.
final class Published: Sendable {
    let texts = Mutex<[String]>([])
}

extension RecordingRing {
    /// True while a hold lasts.
    var isHeld: Bool {
        if case .holding = phase { return true }
        return false
    }
}
