import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How many connections fit under the process's open-file limit.
///
/// Each connection holds one descriptor. When accept(2) fails with EMFILE,
/// SwiftNIO's `ServerBootstrap` (its `AcceptBackoffHandler`, installed on
/// every listener) stops accepting for one second and tries again: the
/// listener survives, but no new client, /healthz included, gets in until a
/// descriptor frees. Keeping the default cap below the limit means the cap's
/// eviction (`WebConnectionRegistry`) acts first, so a flood of idle
/// connections never starves a real client.
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

    /// `requested` (or the default) lowered to `connectionRoom` when no
    /// explicit value was given; an explicit value is kept as asked.
    public static func connectionCap(requested: Int?) -> Int {
        if let requested { return requested }
        return min(WebServerConfiguration.defaultMaxConnections, connectionRoom ?? Int.max)
    }
}
