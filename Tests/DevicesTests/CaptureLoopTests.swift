@testable import Devices
import Motion
import Synchronization
import Testing
import Wording

/// The one capture loop, run in-process over a scripted device: faults,
/// reopening with backoff (stepped, never slept) and stopping.
@Suite(.timeLimit(.minutes(2))) struct CaptureLoopTests {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What each open and each session does, in order.
    final class Script: @unchecked Sendable {
        // Safe: touched only by the capture thread while it runs, read after `finished()`.
        var opens: [Result<Int, Failure>]
        var pauses: [Double] = []
        var openCount = 0
        init(opens: [Result<Int, Failure>]) { self.opens = opens }
    }

    /// A device whose sessions deliver `samples` samples and then fail.
    struct ScriptedDevice: CaptureDevice {
        let script: Script
        var configuration = CaptureConfiguration(retryInitialSeconds: 0.5, retryMaximumSeconds: 2)
        var threadName: String { "tiltd test" }
        var noun: String { "the device" }
        var faultRemedy: String { "retrying with backoff" }

        func open(notice: (Diagnostic) -> Void) throws -> any CaptureDeviceSession {
            notice(.notice("opening"))
            script.openCount += 1
            let next = script.opens.isEmpty ? .failure(Failure(description: "no more opens")) : script.opens.removeFirst()
            return ScriptedSession(samples: try next.get())
        }

        func resumedNotice(_ status: CaptureStatus) -> Diagnostic { .notice("\(status.info.displayName) is back") }
        func faultTime(clock: String, lastSampleNanoseconds: Int64?) -> Int64 { (lastSampleNanoseconds ?? 0) + 1 }
    }

    final class ScriptedSession: CaptureDeviceSession {
        let samples: Int
        let status = CaptureStatus(info: CaptureLoopTests.info, mode: .poll, rateHertz: 10, clock: "monotonic")
        var cancel: (@Sendable () -> Void)? { nil }
        init(samples: Int) { self.samples = samples }

        func run(shouldStop: () -> Bool, notice: (Diagnostic) -> Void, emit: (CapturedSample) -> Bool) throws -> Bool {
            for index in 0..<samples where !shouldStop() {
                let reading = Reading(timestampNanoseconds: Int64(index + 1) * 100, acceleration: SIMD3(0, 0, 9.8))
                if !emit(CapturedSample(reading: reading, raw: SIMD3(0, 0, 1))) { return false }
            }
            throw Failure(description: "gone")
        }

        func close() {}
    }

    static let info = AccelerometerInfo(
        id: "iio:device0", name: "test", label: nil, udevLocation: nil, uri: "local:", scale: SIMD3(repeating: 1),
        offset: SIMD3(repeating: 0), scaleSource: "", offsetSource: "", mountMatrix: .identity,
        mountMatrixSource: .identity, samplingFrequencyHertz: 10, availableFrequencies: nil,
        availableFrequenciesText: nil, bufferCapable: false, hasTimestamp: false, currentTrigger: nil,
        triggerCandidate: nil, timestampClock: nil)

    /// Runs `script` until the handler has seen `samples` samples; returns the events as text.
    static func run(_ script: Script, stopAfter samples: Int) async throws -> [String] {
        let loop = CaptureLoop(ScriptedDevice(script: script), pause: { seconds, _ in script.pauses.append(seconds) })
        let events = Mutex<[String]>([])
        try loop.start { event in
            events.withLock { events in
                switch event {
                case .opened: events.append("opened")
                case .statusChanged: events.append("status")
                case .sample(let sample): events.append("sample \(sample.reading.timestampNanoseconds)")
                case .notice(let diagnostic): events.append("\(diagnostic.message)")
                case .fault(let message, let time): events.append("fault at \(time): \(message)")
                case .batchEnd: break
                }
                return events.count { $0.hasPrefix("sample") } < samples
            }
        }
        await loop.finished()
        return events.withLock { $0 }
    }

    @Test func aFaultIsReportedAndTheDeviceReopenedWithBackoff() async throws {
        let script = Script(opens: [.success(2), .failure(Failure(description: "busy")),
                                    .failure(Failure(description: "busy")), .success(5)])
        let events = try await Self.run(script, stopAfter: 3)
        #expect(events == [
            "opening", "opened", "sample 100", "sample 200",
            "fault at 201: lost iio:device0 (test): gone; retrying with backoff",
            // A failed reopen's own notices are dropped, and the same failure is said once.
            "still cannot open the device: busy",
            "opening", "iio:device0 (test) is back", "opened", "sample 100",
        ])
        // Doubling from the initial backoff up to the maximum; the reopen resets it.
        #expect(script.pauses == [0.5, 1, 2])
    }

    @Test func aFailedFirstOpenThrowsWithItsNotices() throws {
        let script = Script(opens: [.failure(Failure(description: "no such device"))])
        let loop = CaptureLoop(ScriptedDevice(script: script))
        let notices = Mutex<[String]>([])
        #expect(throws: Failure.self) {
            try loop.start { event in
                if case .notice(let diagnostic) = event { notices.withLock { $0.append("\(diagnostic.message)") } }
                return true
            }
        }
        #expect(notices.withLock { $0 } == ["opening"])
    }

    /// Awaiting the end of a loop that never started returns (the suite's
    /// time limit fails it otherwise) and opens nothing.
    @Test func finishedReturnsAtOnceForALoopNeverStarted() async {
        let script = Script(opens: [])
        let loop = CaptureLoop(ScriptedDevice(script: script))
        loop.stop()
        await loop.finished()
        #expect(script.openCount == 0)
    }

    @Test func aStopDuringTheBackoffEndsTheThreadWithoutReopening() async throws {
        let script = Script(opens: [.success(1)])
        let running = Mutex<CaptureLoop?>(nil)
        let stopSeen = Mutex(false)
        let loop = CaptureLoop(ScriptedDevice(script: script), pause: { _, stop in
            running.withLock { $0 }?.stop()
            stopSeen.withLock { $0 = stop() }
        })
        running.withLock { $0 = loop }
        try loop.start { _ in true }
        await loop.finished()
        #expect(stopSeen.withLock { $0 }, "the pause is told the capture is stopping")
        #expect(script.openCount == 1, "no reopen was attempted after the stop")
    }
}
