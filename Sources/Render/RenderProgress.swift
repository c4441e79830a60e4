import Foundation
import Platform

/// Progress of a long render on stderr: a redrawn bar when stderr is a
/// terminal, otherwise a plain "render: 40%" line every 10%. Silent for
/// renders under 120 frames.
public struct RenderProgress {
    public let total: Int
    public let enabled: Bool
    public let terminal: Bool
    private var shown = -1
    private let start = ContinuousClock.now

    public init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && total >= 120
        terminal = Posix.isTerminal(STDERR_FILENO)
    }

    public mutating func advance(to done: Int) {
        guard enabled else { return }
        if terminal {
            let percent = done * 100 / total
            guard percent != shown else { return }
            shown = percent
            let width = 30
            let filled = done * width / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write("\r[\(bar)] \(percent)% \(done)/\(total) frames")
        } else {
            let tenth = done * 10 / total
            guard tenth != shown, tenth > 0 else { return }
            shown = tenth
            write("render: \(tenth * 10)% (\(done)/\(total) frames)\n")
        }
    }

    public mutating func finish() {
        guard enabled, terminal else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        write("\r\u{1B}[K" + String(format: "rendered %d frames in %.2f s\n", total, seconds))
    }

    private func write(_ text: String) {
        Posix.writeStandardError(Array(text.utf8))
    }
}
