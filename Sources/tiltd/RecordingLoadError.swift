/// A recording that could not be loaded; printed by ArgumentParser as one
/// line ("Error: <file>:<line>: …") with exit status 1.
struct RecordingLoadError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
