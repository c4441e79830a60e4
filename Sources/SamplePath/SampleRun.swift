import Knob
import Motion

/// The one path every sample takes: reading → `TiltPipeline` → `KnobState`
/// → the hub (`StateHub`, or a single sink), once per sample, with one
/// diagnostic policy (`DiagnosticReporter`).
///
/// `tiltd run`, `record` (without a pipeline it is not used), `replay`,
/// `serve` and `render` all feed their readings through one of these; they
/// differ only in where readings come from (a device, a file, paced or not)
/// and which sink takes the states.
///
/// Not thread-safe: one thread or task drives a run at a time (the capture
/// thread, or the replay task); `@unchecked Sendable` lets a service hand it
/// to the task that drives it.
public final class SampleRun: @unchecked Sendable {
    /// Where samples and states go (a `StateHub` for several consumers).
    public let sink: any StateSink
    private let everySample: Bool
    private let configuration: PipelineConfiguration
    private var pipeline: TiltPipeline
    private var reporter: DiagnosticReporter
    /// States emitted so far.
    public private(set) var stateCount = 0

    /// - Parameters:
    ///   - configuration: the Motion pipeline's settings.
    ///   - sink: where states go.
    ///   - reporter: how diagnostics are reported (names the file, if any).
    public init(configuration: PipelineConfiguration, sink: any StateSink, reporter: DiagnosticReporter) {
        self.configuration = configuration
        self.pipeline = TiltPipeline(configuration: configuration)
        self.sink = sink
        everySample = sink.wantsEverySample
        self.reporter = reporter
    }

    /// Takes one reading and publishes it, with a state when one passes the gate.
    public func process(_ reading: Reading) {
        if let tilt = pipeline.process(reading) {
            stateCount += 1
            // Gated-only consumers take the state as it is: no sample built.
            if everySample {
                sink.take(PublishedSample(reading: reading, state: KnobState(tilt: tilt),
                                          correctedRotationRate: pipeline.correctedRotationRate))
            } else {
                sink.emit(KnobState(tilt: tilt))
            }
        } else if everySample {
            sink.take(PublishedSample(reading: reading, state: nil,
                                      correctedRotationRate: pipeline.correctedRotationRate))
        }
        if pipeline.hasDiagnostics { reporter.report(pipeline.takeDiagnostics()) }
    }

    /// The readings of one wake-up of a paced capture have all been taken:
    /// the sinks may send what they held for the batch.
    public func endBatch() { sink.endBatch() }

    /// Takes readings as fast as they come.
    public func process(_ readings: some Sequence<Reading>) {
        for reading in readings { process(reading) }
    }

    /// Takes a whole recording as fast as it comes, a block at a time, while
    /// `keepGoing` says so (stdout still open).
    ///
    /// - Throws: what the source throws (a bad line in a stream).
    public func process(_ source: ReplaySource, while keepGoing: () -> Bool = { true }) throws {
        let next = source.makeBlocks()
        while keepGoing(), let block = try next() { process(block) }
    }

    /// Starts a fresh pipeline (a looped recording starts over: the filter and
    /// the gate must not see the jump back to the first timestamp).
    /// Diagnostics already counted stay counted.
    public func restart() {
        reporter.absorbDropped(pipeline.droppedDiagnostics)
        pipeline = TiltPipeline(configuration: configuration)
    }

    /// Flushes the sink and sums up the diagnostics not shown.
    public func finish() {
        sink.flush()
        reporter.finish(dropped: pipeline.droppedDiagnostics)
    }
}
