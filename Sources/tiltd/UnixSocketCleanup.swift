import Glibc

/// Removes tiltd's socket files when SIGINT, SIGTERM, SIGHUP or SIGPIPE
/// (stdout closed) arrives, from inside the signal handler, then passes the
/// signal on to whatever handled it before (or to the default action, which
/// ends the process); and at `exit()`.
///
/// Commands that stop gracefully on a signal also close their servers, which
/// removes the file again (harmlessly); this handler covers the commands that
/// simply die on a signal. Only async-signal-safe calls run in the handler
/// (POSIX: `lstat`, `unlink`, `sigaction`, `raise`), over storage allocated
/// before the handler is installed. A file is removed only if it is still the
/// socket this process bound (same device and inode), so a successor's
/// socket is never deleted.
enum UnixSocketCleanup {
    private static let slotCount = 8
    private static let slotBytes = 112  // sun_path (108) rounded up

    // Written only outside the handler, before a slot is marked in use.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotBytes)
        p.initialize(repeating: 0, count: slotCount * slotBytes)
        return p
    }()
    nonisolated(unsafe) private static let identities: UnsafeMutablePointer<(UInt64, UInt64)> = {
        let p = UnsafeMutablePointer<(UInt64, UInt64)>.allocate(capacity: slotCount)
        p.initialize(repeating: (0, 0), count: slotCount)
        return p
    }()
    /// The signals handled, and their previous actions at the same index.
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        p.initialize(repeating: sigaction(), count: signals.count)
        return p
    }()
    nonisolated(unsafe) private static var installed = false

    /// Remembers `path` (bound by this process as device/inode) for removal
    /// on SIGINT/SIGTERM and installs the handler on first use.
    ///
    /// - Returns: the slot to pass to `forget`, or nil when all slots are taken.
    static func remember(path: String, device: UInt64, inode: UInt64) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < slotBytes else { return nil }
        for slot in 0..<slotCount where paths[slot * slotBytes] == 0 {
            let base = paths + slot * slotBytes
            for (i, byte) in bytes.enumerated() { base[i] = CChar(bitPattern: byte) }
            base[bytes.count] = 0
            identities[slot] = (device, inode)
            installIfNeeded()
            return slot
        }
        return nil
    }

    /// Stops watching a slot (the server removed its file itself).
    static func forget(slot: Int) {
        paths[slot * slotBytes] = 0
    }

    /// Removes `path` if it is still the socket with this device and inode.
    ///
    /// - Returns: true when the file was removed.
    @discardableResult
    static func removeIfOurs(_ path: UnsafePointer<CChar>, device: UInt64, inode: UInt64) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0,
              UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return false }
        return unlink(path) == 0
    }

    private static func installIfNeeded() {
        guard !installed else { return }
        installed = true
        atexit { UnixSocketCleanup.removeAll() }
        for (index, signal) in signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, context in
                UnixSocketCleanup.handle(signal, info, context)
            }
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + index)
        }
    }

    private static func removeAll() {
        for slot in 0..<slotCount where paths[slot * slotBytes] != 0 {
            removeIfOurs(paths + slot * slotBytes, device: identities[slot].0, inode: identities[slot].1)
            paths[slot * slotBytes] = 0
        }
    }

    private static func handle(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                               _ context: UnsafeMutableRawPointer?) {
        removeAll()
        // A linear search: `signals` is a constant array, no allocation here.
        var index = 0
        while index < signals.count - 1 && signals[index] != signal { index += 1 }
        let prior = previous + index
        if prior.pointee.sa_flags & SA_SIGINFO != 0, let chained = prior.pointee.__sigaction_handler.sa_sigaction {
            chained(signal, info, context)
            return
        }
        let handler = prior.pointee.__sigaction_handler.sa_handler
        switch unsafeBitCast(handler, to: Int.self) {
        case 0:  // SIG_DFL: restore it and let the signal end the process.
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            var ignored = sigaction()
            sigaction(signal, &action, &ignored)
            raise(signal)
        case 1:  // SIG_IGN
            return
        default:
            handler?(signal)
        }
    }
}
