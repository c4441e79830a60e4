import Glibc
import Logging
import Platform

/// The socket file of a `unix:PATH` address, claimed for one server: bound and
/// listening, mode 0660 from the start, guarded by a lock file.
///
/// Start-up is serialized on an exclusive `flock` of `PATH.lock`, held for
/// the server's whole life. A second tiltd that finds the lock held knows a
/// live server owns (or is at this moment creating) the socket and stops
/// without touching it; there is no window in which a starting server's
/// socket looks stale. Only with the lock held is an existing socket probed:
/// a connection refused means a crashed process left it, and it is replaced;
/// a connection accepted means a process that does not take the lock (an
/// older tiltd, another program) serves it, and it is left alone.
///
/// The socket is bound at `PATH.new`, given mode 0660 (`connect(2)` on a
/// Unix socket needs write permission on it) and its group, then listened
/// on and renamed to `PATH`: a socket that is not listening refuses every
/// connection, so no client connects before the mode and group are in
/// force, and none finds the file before it accepts connections. (Not a
/// umask around `bind`: the umask is process-wide, and any file or child
/// process another thread created meanwhile would take it.)
struct UnixSocketFile {
    let path: String
    /// The bound, listening socket; the caller owns it once claimed.
    let socket: Int32
    private let lockDescriptor: Int32
    private let socketFile: UnixSocketCleanup.Owned
    private let lockFile: UnixSocketCleanup.Owned
    private let cleanupKey: Int

    /// Lock files that vanish between open and flock are retried this often.
    private static let lockAttempts = 8

    /// Claims `path`.
    ///
    /// - Parameters:
    ///   - group: the socket file's group (nil: the process's).
    ///   - backlog: `listen(2)` backlog.
    ///   - logger: the notice when a stale socket is replaced.
    /// - Throws: `UnixSocketError`.
    static func claim(path: String, group: gid_t?, backlog: Int32, logger: Logger) throws(UnixSocketError) -> UnixSocketFile {
        guard path.utf8.count <= Posix.maximumSocketPathBytes else {
            throw .pathTooLong(path: path, maximumBytes: Posix.maximumSocketPathBytes)
        }
        let lockPath = path + ".lock"
        let (lockDescriptor, lockFile) = try lock(lockPath, socketPath: path)
        do throws(UnixSocketError) {
            try clearStaleSocket(at: path, logger: logger)
            let socket = try bindAndListen(path, group: group, backlog: backlog)
            guard let info = try? Posix.status(ofPath: path) else {
                Posix.close(socket)
                throw UnixSocketError.system(PosixError(call: "lstat", code: ENOENT), path: path)
            }
            let socketFile = UnixSocketCleanup.Owned(path: path, device: UInt64(info.st_dev),
                                                     inode: UInt64(info.st_ino))
            let key = UnixSocketCleanup.remember([socketFile, lockFile])
            return UnixSocketFile(path: path, socket: socket, lockDescriptor: lockDescriptor,
                                  socketFile: socketFile, lockFile: lockFile, cleanupKey: key)
        } catch {
            UnixSocketCleanup.removeIfOurs(lockFile)
            Posix.close(lockDescriptor)
            throw error
        }
    }

    /// Removes the socket file (if it is still ours) and the lock file, then
    /// releases the lock. The socket descriptor is the server's to close.
    func release() {
        UnixSocketCleanup.forget(cleanupKey)
        UnixSocketCleanup.removeIfOurs(socketFile)
        // Unlinked while still held: a starter that opened the old file
        // notices the path now names another file (or none) and retries.
        UnixSocketCleanup.removeIfOurs(lockFile)
        Posix.close(lockDescriptor)
    }

    /// Opens and locks `lockPath`, making sure the file locked is the one the
    /// path names (a releasing server unlinks it while holding the lock).
    private static func lock(_ lockPath: String, socketPath: String) throws(UnixSocketError) -> (Int32, UnixSocketCleanup.Owned) {
        for _ in 0..<lockAttempts {
            let fd: Int32
            do { fd = try Posix.openLockFile(lockPath) } catch {
                // O_NOFOLLOW: a symbolic link planted at the lock's path.
                if error.code == ELOOP { throw .foreignLockFile(path: lockPath, owner: (try? Posix.status(ofPath: lockPath))?.st_uid ?? 0) }
                throw .system(error, path: lockPath)
            }
            // A file someone else made (in a shared directory, say) is not
            // taken: its maker could open and hold it.
            guard let info = try? Posix.status(ofDescriptor: fd),
                  info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
                let owner = (try? Posix.status(ofDescriptor: fd))?.st_uid ?? 0
                Posix.close(fd)
                throw .foreignLockFile(path: lockPath, owner: owner)
            }
            let locked: Bool
            do { locked = try Posix.tryLockExclusive(fd) } catch {
                Posix.close(fd)
                throw .system(error, path: lockPath)
            }
            guard locked else {
                Posix.close(fd)
                throw .inUse(path: socketPath)
            }
            guard let held = try? Posix.status(ofDescriptor: fd), let named = try? Posix.status(ofPath: lockPath),
                  held.st_dev == named.st_dev, held.st_ino == named.st_ino else {
                Posix.close(fd)
                continue
            }
            return (fd, UnixSocketCleanup.Owned(path: lockPath, device: UInt64(held.st_dev), inode: UInt64(held.st_ino)))
        }
        throw .inUse(path: socketPath)
    }

    /// Removes a socket file nobody serves any more; refuses to touch a live
    /// socket or anything that is not a socket.
    private static func clearStaleSocket(at path: String, logger: Logger) throws(UnixSocketError) {
        let existing: stat?
        do { existing = try Posix.status(ofPath: path) } catch { throw .system(error, path: path) }
        guard let existing else { return }
        guard existing.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        let probe: Int32
        do { probe = try Posix.unixStreamSocket() } catch { throw .system(error, path: path) }
        defer { Posix.close(probe) }
        do {
            try Posix.connect(probe, path: path)
        } catch {
            // ECONNREFUSED: a socket file with no listener, left by a crash.
            guard error.code == ECONNREFUSED else {
                throw .system(PosixError(call: "connect (probing the existing socket)", code: error.code), path: path)
            }
            do { try Posix.unlink(path) } catch {
                throw .system(PosixError(call: "unlink (stale socket)", code: error.code), path: path)
            }
            logger.notice("replaced stale socket file \(path) left by an earlier run")
            return
        }
        throw .inUse(path: path)
    }

    /// Binds, sets the group, listens, and only then puts the socket at
    /// `path` with `rename(2)`: a client that waits for the file to appear
    /// never finds it before it accepts connections, and a stale file is
    /// replaced atomically. (When `path` is too long for a temporary name
    /// beside it, the socket is bound at `path` directly.)
    private static func bindAndListen(_ path: String, group: gid_t?, backlog: Int32) throws(UnixSocketError) -> Int32 {
        let staging = path + ".new"
        let bindPath = staging.utf8.count <= Posix.maximumSocketPathBytes ? staging : path
        // Left by a crash between bind and rename; the lock makes it ours to clear.
        if bindPath != path { try? Posix.unlink(bindPath) }
        let fd: Int32
        do { fd = try Posix.unixStreamSocket() } catch { throw .system(error, path: path) }
        do {
            try Posix.bind(fd, path: bindPath)
        } catch {
            Posix.close(fd)
            // Only a process ignoring the lock could have bound it in between.
            if error.code == EADDRINUSE { throw .inUse(path: path) }
            throw .system(error, path: path)
        }
        do {
            // Before listen(2): until then every connection is refused.
            try Posix.changeMode(bindPath, to: 0o660)
            if let group { try Posix.changeGroup(bindPath, to: group) }
            try Posix.listen(fd, backlog: backlog)
            if bindPath != path { try Posix.rename(bindPath, to: path) }
        } catch {
            Posix.close(fd)
            try? Posix.unlink(bindPath)
            throw .system(error, path: path)
        }
        return fd
    }
}
