import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The test process's open-file limit, raised once to what the suite needs.
///
/// Suites run in parallel in one process: the web attack and file-limit
/// suites hold several hundred sockets each while other suites start
/// in-process servers, and a server sizes its connection budget from the
/// descriptors left at `init` (`WebFileLimit.connectionRoom`). Under a
/// common soft limit of 1,024 the budget of a server started during a flood
/// shrinks to a handful of connections, and a browser's page load is cut off;
/// at worst libdispatch traps on EMFILE. `scripts/test.sh` raises the limit
/// for the shell; this does the same for a bare `swift test`.
public enum TestFileLimit {
    /// What the suite asks for: enough for two floods and every other suite.
    public static let wanted = 16_384

    /// The soft limit after `raise()`.
    public static let soft: Int = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = min(rlim_t(wanted), limit.rlim_max)
        if limit.rlim_cur < target {
            limit.rlim_cur = target
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return limit.rlim_cur == rlim_t.max ? Int.max : Int(clamping: limit.rlim_cur)
    }()

    /// Raises the soft limit toward `wanted` (at most the hard limit), once.
    @discardableResult public static func raise() -> Int { soft }
}
