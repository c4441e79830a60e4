import Motion

/// What a streamed replay saw, for the messages after it: samples and gaps.
public final class ReplayTally {
    private var samples = 0
    private var gaps = 0
    private var firstGap: TraceGap?

    public init() {}

    public func add(_ block: Recording) {
        samples += block.readings.count
        gaps += block.gaps.count
        firstGap = firstGap ?? block.gaps.first
    }

    /// Says when there was nothing to replay (unless a signal cut it short)
    /// and where the first gap was.
    public func report(file: String, stoppedEarly: Bool) {
        let logger = TiltdLog.logger
        if samples == 0, !stoppedEarly {
            logger.warning("\(file.escapingControls()): the recording has no samples; nothing to replay")
        }
        if let firstGap {
            let reason = firstGap.reason.isEmpty ? "" : " (\(firstGap.reason.escapingControls()))"
            logger.info("""
                note: \(file.escapingControls()): \(Counted.text(gaps, "gap")) in the trace, the first at \
                \(PipelineDiagnostic.secondsText(firstGap.timestampNanoseconds)) s\(reason)
                """)
        }
    }
}
