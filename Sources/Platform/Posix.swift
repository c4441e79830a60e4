import Glibc

/// Every raw POSIX call the sample path, the socket and the daemon make, each returning its result or a
/// typed `PosixError` (never a bare `-1` and `errno`).
///
/// Kept in one place so that the callers above read as Swift, and so that
/// what the process does to the file system (sockets, locks, modes) can be
/// reviewed in one file. The calls Render's outputs make too are
/// `package` (within tiltd's package, never public).
package enum Posix {
    /// `sockaddr_un.sun_path` holds 108 bytes including the terminating NUL.
    package static let maximumSocketPathBytes = 107

    /// A new `AF_UNIX` stream socket, close-on-exec.
    package static func unixStreamSocket() throws(PosixError) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PosixError(call: "socket", code: errno) }
        return fd
    }

    /// Binds `fd` to the socket file `path` (which must not exist).
    package static func bind(_ fd: Int32, path: String) throws(PosixError) {
        guard withSocketAddress(path, { Glibc.bind(fd, $0, $1) }) == 0 else { throw PosixError(call: "bind", code: errno) }
    }

    /// Connects `fd` to the socket file `path`.
    package static func connect(_ fd: Int32, path: String) throws(PosixError) {
        guard withSocketAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 else {
            throw PosixError(call: "connect", code: errno)
        }
    }

    package static func listen(_ fd: Int32, backlog: Int32) throws(PosixError) {
        guard Glibc.listen(fd, backlog) == 0 else { throw PosixError(call: "listen", code: errno) }
    }

    /// Waits for and accepts a connection on the listening socket `fd`; the
    /// new socket is made close-on-exec at once (Glibc's module does not
    /// offer accept4; tiltd starts no processes while serving, and the
    /// test suite's Foundation `Process` closes inherited descriptors).
    package static func accept(_ fd: Int32) throws(PosixError) -> Int32 {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return client
            }
            if errno != EINTR { throw PosixError(call: "accept", code: errno) }
        }
    }

    /// Shuts both directions of `fd` down: wakes a thread blocked in
    /// `accept(_:)` on it (which then fails with EINVAL).
    package static func shutdown(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// A second descriptor of the same open socket, close-on-exec.
    package static func duplicate(_ fd: Int32) throws(PosixError) -> Int32 {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw PosixError(call: "fcntl(F_DUPFD_CLOEXEC)", code: errno) }
        return copy
    }

    /// Sets `SO_SNDBUF`: how much the kernel queues for a peer that does not read.
    package static func setSendBuffer(_ fd: Int32, bytes: Int32) throws(PosixError) {
        var value = bytes
        guard setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw PosixError(call: "setsockopt(SO_SNDBUF)", code: errno)
        }
    }

    /// What one non-blocking `send(2)` did.
    package enum SendOutcome: Equatable {
        /// This many bytes (all, some, or 0 when the socket's queue is full).
        case sent(Int)
        /// The peer is gone (EPIPE, ECONNRESET) or the socket failed.
        case failed(PosixError)
    }

    /// Sends what it can of `bytes` on the stream socket `fd` without
    /// blocking and without SIGPIPE.
    package static func sendNow(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SendOutcome {
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            if n >= 0 { return .sent(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .sent(0)
            default: return .failed(PosixError(call: "send", code: errno))
            }
        }
    }

    /// `lstat(path)`, or nil when nothing is there.
    package static func status(ofPath path: String) throws(PosixError) -> stat? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw PosixError(call: "lstat", code: errno)
        }
        return info
    }

    /// `fstat(fd)`.
    package static func status(ofDescriptor fd: Int32) throws(PosixError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PosixError(call: "fstat", code: errno) }
        return info
    }

    /// Removes `path`; a path already gone is not an error.
    package static func unlink(_ path: String) throws(PosixError) {
        guard Glibc.unlink(path) == 0 || errno == ENOENT else { throw PosixError(call: "unlink", code: errno) }
    }

    /// Moves `from` to `to` atomically, replacing what `to` named.
    package static func rename(_ from: String, to: String) throws(PosixError) {
        guard Glibc.rename(from, to) == 0 else { throw PosixError(call: "rename", code: errno) }
    }

    /// Gives `path` the group `group`, keeping its owner.
    package static func changeGroup(_ path: String, to group: gid_t) throws(PosixError) {
        guard chown(path, uid_t.max, group) == 0 else { throw PosixError(call: "chown", code: errno) }
    }

    /// Sets `path`'s permission bits to `mode`.
    package static func changeMode(_ path: String, to mode: mode_t) throws(PosixError) {
        guard chmod(path, mode) == 0 else { throw PosixError(call: "chmod", code: errno) }
    }

    /// Opens (creating it, mode 0600) a lock file, read-only and close-on-exec,
    /// never through a symbolic link. Only its owner can open it, so only
    /// its owner can `flock` it: a lock that other users could take would let
    /// any of them keep the server from starting.
    package static func openLockFile(_ path: String) throws(PosixError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw PosixError(call: "open", code: errno) }
        return fd
    }

    /// Takes an exclusive `flock` without waiting.
    ///
    /// - Returns: false when another open file description holds it.
    package static func tryLockExclusive(_ fd: Int32) throws(PosixError) -> Bool {
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw PosixError(call: "flock", code: errno)
    }

    /// Closes `fd`, ignoring errors (for descriptors only read or already failed).
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Closes a descriptor that was written to: a failure here can mean lost data.
    package static func closeAfterWriting(_ fd: Int32) throws(PosixError) {
        guard Glibc.close(fd) == 0 else { throw PosixError(call: "close", code: errno) }
    }

    /// Creates the directory `path` (mode 0755); one that exists already is fine.
    package static func makeDirectory(_ path: String) throws(PosixError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw PosixError(call: "mkdir", code: errno) }
    }

    /// Opens `path` for writing, truncating or creating it (mode 0644).
    package static func openForWriting(_ path: String) throws(PosixError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PosixError(call: "open", code: errno) }
        return fd
    }

    /// True when `path` may be written by this process (`access(W_OK)`).
    package static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// The file type bits of `path` after following symbolic links
    /// (`S_IFDIR`, `S_IFREG`, …), or nil when nothing (or a dangling link) is there.
    package static func fileType(following path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// True when files may be created in the directory `path` (`access(W_OK | X_OK)`).
    package static func canCreateFiles(in path: String) -> Bool {
        access(path, W_OK | X_OK) == 0
    }

    /// The running executable's path (`/proc/self/exe`'s target), or nil
    /// when it cannot be read.
    package static func executablePath() -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBytes { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// True when `path` is a regular file this process may read (after following links).
    package static func isReadableFile(_ path: String) -> Bool {
        fileType(following: path) == S_IFREG && access(path, R_OK) == 0
    }

    /// True when `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) != 0
    }

    /// The id of the group called `name`, or nil when there is none.
    package static func groupID(named name: String) -> gid_t? {
        getgrnam(name)?.pointee.gr_gid
    }

    /// True when `group` is this process's effective or a supplementary group.
    package static func isMember(of group: gid_t) -> Bool {
        if getegid() == group { return true }
        let count = getgroups(0, nil)
        guard count > 0 else { return false }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let filled = getgroups(count, &groups)
        return groups.prefix(Int(max(filled, 0))).contains(group)
    }

    /// True when `signal`'s disposition is SIG_IGN (e.g. SIGHUP under `nohup`).
    package static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
    }

    /// Makes a write to a pipe or socket whose reader has gone fail with
    /// EPIPE instead of ending the process with SIGPIPE: every such write is
    /// an error tiltd reports and cleans up after (the socket file, the bus
    /// name), whatever thread or library makes it.
    package static func ignoreBrokenPipes() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `bytes` to standard error with one `write(2)` per call, so
    /// lines from several threads never interleave.
    package static func writeStandardError(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    /// Calls `body` with a `sockaddr_un` for `path` and its length.
    private static func withSocketAddress(_ path: String,
                                          _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(maximumSocketPathBytes).enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
