import Logging
import Motion

/// The one policy for pipeline diagnostics, whatever the source: the first
/// of each kind is logged in full as a warning, the rest are counted and
/// summed up once at the end, so a long run never floods stderr.
public struct DiagnosticReporter: Sendable {
    /// What the diagnostics are about (a file name), or nil for a device.
    public let subject: String?
    private let logger: Logger
    private var counts: [String: Int] = [:]
    private var droppedEarlier = 0

    public init(subject: String?, logger: Logger = TiltdLog.logger) {
        self.subject = subject
        self.logger = logger
    }

    /// How many diagnostics of `kind` were reported.
    public func count(of kind: String) -> Int { counts[kind, default: 0] }

    public mutating func report(_ diagnostics: [PipelineDiagnostic]) {
        for diagnostic in diagnostics {
            let seen = counts[diagnostic.kind, default: 0]
            counts[diagnostic.kind] = seen + 1
            if seen == 0 { logger.warning("\(prefix)\(diagnostic)") }
        }
    }

    /// Remembers diagnostics a pipeline dropped before it was replaced.
    public mutating func absorbDropped(_ dropped: Int) {
        droppedEarlier += dropped
    }

    /// Logs how many were not shown, and how many the pipeline dropped.
    public func finish(dropped: Int) {
        let dropped = dropped + droppedEarlier
        for (kind, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            logger.warning("\(prefix)\(Counted.text(count - 1, "more \(kind) warning")) not shown")
        }
        if dropped > 0 {
            logger.warning("\(prefix)\(Counted.text(dropped, "further warning")) dropped")
        }
    }

    private var prefix: String { subject.map { "\($0): " } ?? "" }
}
