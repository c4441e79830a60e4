import Glibc
import Synchronization

/// Removes tiltd's socket and lock files when the process ends without
/// closing its servers (the command line ending it after a failure).
///
/// Signals do not need this: SIGINT, SIGTERM and SIGHUP shut the services
/// down through the lifecycle, which closes the servers. A file is removed
/// only if it is still the one this process made (same device and inode), so
/// a successor's socket is never deleted.
enum UnixSocketCleanup {
    /// A file this process made, by path and identity.
    struct Owned: Sendable, Equatable {
        var path: String
        var device: UInt64
        var inode: UInt64
    }

    private static let owned = Mutex<[Int: [Owned]]>([:])
    private static let nextKey = Atomic<Int>(0)
    private static let installed = Atomic<Bool>(false)

    /// Registers files for removal at exit.
    ///
    /// - Returns: the key to pass to `forget`.
    static func remember(_ files: [Owned]) -> Int {
        if !installed.exchange(true, ordering: .acquiringAndReleasing) {
            atexit { UnixSocketCleanup.removeAll() }
        }
        let key = nextKey.add(1, ordering: .relaxed).newValue
        owned.withLock { $0[key] = files }
        return key
    }

    /// Stops watching files the server removed itself.
    static func forget(_ key: Int) {
        _ = owned.withLock { $0.removeValue(forKey: key) }
    }

    /// Removes `file` if the path still names it.
    ///
    /// - Returns: true when it was removed.
    @discardableResult
    static func removeIfOurs(_ file: Owned) -> Bool {
        guard let info = try? Posix.status(ofPath: file.path),
              UInt64(info.st_dev) == file.device, UInt64(info.st_ino) == file.inode else { return false }
        return (try? Posix.unlink(file.path)) != nil
    }

    private static func removeAll() {
        let files = owned.withLock { owned -> [Owned] in
            defer { owned.removeAll() }
            return owned.values.flatMap { $0 }
        }
        for file in files { removeIfOurs(file) }
    }
}
