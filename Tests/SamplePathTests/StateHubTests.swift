import Knob
import Motion
import SamplePath
import Synchronization
import Testing
import TiltdTestSupport

/// The one fan-out (`StateHub`) and the newest-value mailbox its slow
/// consumers read at their own pace.
@Suite(.timeLimit(.minutes(2))) struct StateHubTests {
    /// Keeps every sample it is handed (a consumer that needs every sample,
    /// as the DSU server will).
    final class EverySample: StateSink, @unchecked Sendable {
        var samples: [PublishedSample] = []
        var wantsEverySample: Bool { true }
        func take(_ sample: PublishedSample) { samples.append(sample) }
        func emit(_ state: EncodedState) { Issue.record("a consumer of every sample is not handed states twice") }
    }

    /// A consumer that only stores the newest state: its reader may be as
    /// slow as it likes.
    final class Mailbox: StateSink, Sendable {
        let newest = NewestValue<KnobState?>(nil)
        func emit(_ state: EncodedState) { newest.post(state.state) }
    }

    static func sample(_ index: Int, gated: Bool) -> PublishedSample {
        let state = TestStates.state(index)
        return PublishedSample(reading: Reading(timestampNanoseconds: state.tilt.timestampNanoseconds,
                                                acceleration: SIMD3(0, -9.8, 0)),
                               state: gated ? state : nil)
    }

    @Test func everyConsumerSeesEachStateOnceAndEverySampleConsumerEverySample() {
        let first = StateCollector(), second = StateCollector(), every = EverySample()
        let hub = StateHub([first, every, second])
        for index in 0..<100 { hub.publish(Self.sample(index, gated: index % 3 == 0)) }
        let gated = (0..<100).filter { $0 % 3 == 0 }.map(TestStates.state)
        #expect(first.states == gated)
        #expect(second.states == gated)
        #expect(every.samples.map(\.reading.timestampNanoseconds) == (0..<100).map { Int64($0) * 5_000_000 })
        #expect(every.samples.compactMap(\.state) == gated)
    }

    /// Writes records, keeping the bytes it was handed.
    final class Records: StateSink, @unchecked Sendable {
        var lines: [[UInt8]] = []
        var usesRecords: Bool { true }
        func emit(_ state: EncodedState) { lines.append(state.line) }
    }

    @Test func theHubEncodesEachStateOnceAndEveryConsumerSharesTheBytes() {
        let first = Records(), second = Records(), collector = StateCollector()
        let hub = StateHub([first, collector, second])
        #expect(hub.usesRecords)
        for index in 0..<20 { hub.publish(Self.sample(index, gated: index % 2 == 0)) }
        let gated = (0..<20).filter { $0 % 2 == 0 }.map(TestStates.state)
        #expect(first.lines.map { String(decoding: $0, as: UTF8.self) } == gated.map(\.jsonLine))
        #expect(collector.states == gated)
        // One encoding: both consumers hold the very same bytes, not copies.
        for (a, b) in zip(first.lines, second.lines) {
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) }
            }
        }
        #expect(!StateHub([collector]).usesRecords, "nothing is encoded for consumers that write no records")
    }

    @Test func aSlowConsumerNeitherBlocksTheProducerNorTheOthers() async {
        let mailbox = Mailbox(), collector = StateCollector()
        let hub = StateHub([mailbox, collector])
        // Nobody reads the mailbox while 10 000 states go by.
        for index in 0..<10_000 { hub.publish(Self.sample(index, gated: true)) }
        #expect(collector.states.count == 10_000)
        // It coalesced to the newest, which its reader then takes at once.
        let entry = await mailbox.newest.next(after: 0)
        #expect(entry?.sequence == 10_000)
        #expect(entry?.value == TestStates.state(9_999))
    }

    /// `SampleRun` publishes each reading once, with the state when the gate passed it.
    @Test func theSampleRunPublishesEverySampleOnce() {
        let every = EverySample(), collector = StateCollector()
        let run = SampleRun(configuration: PipelineConfiguration(), sink: StateHub([every, collector]),
                            reporter: DiagnosticReporter(subject: "test"))
        let readings = (0..<200).map { Reading(timestampNanoseconds: Int64($0) * 10_000_000,
                                               acceleration: SIMD3(0.3, 0.2, 9.8)) }
        run.process(readings)
        run.finish()
        #expect(every.samples.map(\.reading) == readings)
        #expect(every.samples.compactMap(\.state) == collector.states)
        #expect(collector.states.count == run.stateCount)
        #expect(run.stateCount < readings.count, "the gate dropped the still samples")
    }

    @Test func theMailboxWakesWaitersAndLetsCancelledOnesGo() async {
        let mailbox = NewestValue(0)
        #expect(mailbox.current.sequence == 0)
        async let waited = mailbox.next(after: 0)
        mailbox.post(7)
        #expect(await waited?.value == 7)
        // A change that is not new keeps the sequence.
        mailbox.update { $0 = 8; return false }
        #expect(mailbox.current.sequence == 1)
        // A wake returns a reader that asked for it without a value.
        let wakes = mailbox.wakes
        mailbox.wakeAll()
        #expect(await mailbox.next(after: 1, wokenSince: wakes) == nil)
        // A cancelled reader returns nil.
        let reader = Task { await mailbox.next(after: 1) }
        reader.cancel()
        #expect(await reader.value == nil)
    }
}
