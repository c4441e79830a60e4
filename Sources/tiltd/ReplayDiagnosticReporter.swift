import Motion
import Sensors

/// Prints pipeline diagnostics on stderr, the first of each kind in full
/// and a count of the rest at the end.
struct ReplayDiagnosticReporter {
    let file: String
    private var counts: [String: Int] = [:]

    init(file: String) {
        self.file = file
    }

    mutating func report(_ diagnostics: [PipelineDiagnostic]) {
        for diagnostic in diagnostics {
            let seen = counts[diagnostic.kind, default: 0]
            counts[diagnostic.kind] = seen + 1
            if seen == 0 { StdoutSink.writeStandardError("tiltd: warning: \(file): \(diagnostic)") }
        }
    }

    func finish(dropped: Int) {
        for (kind, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            StdoutSink.writeStandardError("tiltd: warning: \(file): \(Counted.text(count - 1, "more \(kind) warning")) not shown")
        }
        if dropped > 0 {
            StdoutSink.writeStandardError("tiltd: warning: \(file): \(Counted.text(dropped, "further warning")) dropped")
        }
    }
}
