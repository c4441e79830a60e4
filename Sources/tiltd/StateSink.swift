import Knob

/// Something that consumes knob states as the pipeline produces them
/// (stdout, the Unix socket, the web page).
///
/// `emit` is called on the sampling thread for every state that passes the
/// gate; implementations must return quickly and never block.
protocol StateSink: AnyObject {
    func emit(_ state: KnobState)
}
