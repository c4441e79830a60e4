import Knob
import Motion
import Sensors

/// Plays a loaded recording into a sink paced to its timestamps, as
/// `tiltd replay --realtime` does, once or over and over (`--loop`).
struct ServeReplay: Sendable {
    let readings: [Reading]
    let configuration: PipelineConfiguration
    let loop: Bool

    /// Runs until the recording ends (without `loop`) or the task is cancelled.
    ///
    /// Each pass starts a fresh pipeline, so the filter and the gate do not
    /// see the jump back from the last timestamp to the first.
    func run(into sink: any StateSink & Sendable) async {
        guard let first = readings.first else { return }
        let clock = ContinuousClock()
        repeat {
            var pipeline = TiltPipeline(configuration: configuration)
            let start = clock.now
            for reading in readings {
                let offset = Nanoseconds.difference(reading.timestampNanoseconds, first.timestampNanoseconds)
                if offset > 0 {
                    do {
                        try await clock.sleep(until: start.advanced(by: .nanoseconds(offset)), tolerance: nil)
                    } catch {
                        return  // cancelled
                    }
                }
                if let tilt = pipeline.process(reading) { sink.emit(KnobState(tilt: tilt)) }
                _ = pipeline.takeDiagnostics()  // replay already reports them; the page does not
            }
        } while loop && !Task.isCancelled
    }
}
