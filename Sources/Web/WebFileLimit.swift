import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How many connections fit under the process's open-file limit.
///
/// Each connection holds one descriptor, and the process must never run
/// out: Swift concurrency's executor on Linux is libdispatch, whose worker
/// pool monitor opens /proc/TID/stat every second while tasks wait to run
/// and traps (SIGILL, "workq: registered worker exited prematurely") when
/// that open fails. A flood of connections keeps tasks waiting, so EMFILE
/// there kills the daemon rather than slowing it down.
///
/// So the listener accepts at most `connectionRoom` connections at once
/// (`WebServer` gives Hummingbird that budget): past it, it stops asking for
/// more and new clients wait in the kernel's backlog until one closes; it
/// never closes itself. The default cap stays below the same room, so the
/// cap's eviction (`WebConnectionRegistry`) acts first and a flood of idle
/// connections never starves a real client. Should accept(2) still fail
/// with EMFILE (something else took the descriptors), SwiftNIO's
/// `AcceptBackoffHandler` pauses accepting for a second and tries again.
public enum WebFileLimit {
    /// Descriptors kept free for everything else: the device, trace files,
    /// the Unix socket and its clients, libraries.
    public static let reserve = 64

    /// The soft RLIMIT_NOFILE, nil when unlimited or unknown.
    public static var softLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors open now (entries of /proc/self/fd).
    public static var openNow: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// The most connections that leave `reserve` descriptors free (at least 1).
    public static var connectionRoom: Int? {
        guard let softLimit else { return nil }
        return max(1, softLimit - openNow - reserve)
    }

    /// How far the default cap stays below `connectionRoom`: a connection
    /// over the cap is accepted before it evicts one (SwiftNIO accepts up to
    /// 4 per wake-up), and it must not find the listener's budget spent, or
    /// new clients would wait for a timeout instead of evicting.
    public static let evictionMargin = 16

    /// `requested`, or the default lowered to `evictionMargin` below `room`;
    /// an explicit value is kept as asked (the listener's budget still holds
    /// open connections to `room`).
    public static func connectionCap(requested: Int?, room: Int? = connectionRoom) -> Int {
        if let requested { return requested }
        return min(WebServerConfiguration.defaultMaxConnections, room.map { max(1, $0 - evictionMargin) } ?? Int.max)
    }
}
