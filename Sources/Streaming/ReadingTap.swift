import Motion

/// Sees every reading a `SampleRun` takes, before the pipeline: how
/// `tiltd serve --record-dir` records the live (or replayed) motion while
/// the page's ring is held, without a second path for the samples.
public protocol ReadingTap: AnyObject, Sendable {
    /// Called on the thread or task that drives the run, once per reading.
    func take(_ reading: Reading)
}
