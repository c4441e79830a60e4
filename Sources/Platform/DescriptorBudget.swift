import Glibc

/// How many more descriptors the process may open before it nears its
/// open-file limit, so that servers refuse new connections before the
/// process runs out.
///
/// Running out is not a slow-down but a crash: libdispatch, Swift
/// concurrency's executor on Linux, opens /proc/TID/stat while tasks wait
/// to run and traps (SIGILL) when that open fails. So every server that
/// takes descriptors per client (the state socket, the DSU server's
/// per-subscriber sockets) asks here first and keeps `reserve` free for the
/// device, files, libraries and the runtime.
package enum DescriptorBudget {
    /// Descriptors left free for everything but clients.
    package static let reserve = 16

    /// The soft RLIMIT_NOFILE, nil when unlimited or unknown.
    package static var softLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors open now (the entries of /proc/self/fd, less the one
    /// reading it), or nil when that cannot be read (no descriptor free to
    /// read it with counts as none left).
    package static var openNow: Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
        }
        return count - 1
    }

    /// Descriptors that may still be opened beyond the reserve (negative
    /// once into it); nil when the limit is unlimited or unknown.
    package static var room: Int? {
        guard let softLimit else { return nil }
        guard let open = openNow else { return -reserve }
        return softLimit - open - reserve
    }

    /// Whether `count` more descriptors fit beyond the reserve.
    package static func allows(_ count: Int) -> Bool {
        guard let room else { return true }
        return room >= count
    }
}
