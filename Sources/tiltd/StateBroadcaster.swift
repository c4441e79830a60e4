import Glibc
import Knob
import Logging
import Synchronization
import Foundation

/// Fans the JSON Lines state stream out to every client of a listening
/// stream socket, on its own thread.
///
/// The producer's `emit` copies the state into a ring under a mutex and, at
/// most once per I/O-thread wake-up, writes one byte to a pipe: O(1), no
/// allocation, never blocks. The I/O thread polls the pipe, the listening
/// socket and the clients (non-blocking, `poll(2)`), encodes each state once
/// and offers the lines to every client. A client that stops reading keeps
/// at most two lines queued (see `BroadcastClient`) and gets only the newest
/// state when it reads again; it never slows the producer or other clients.
/// A new client receives the current state at once. Clients that hang up or
/// fail a write are dropped.
///
/// Call `stop()` before releasing it: the I/O thread keeps it alive.
final class StateBroadcaster: StateSink, @unchecked Sendable {
    // Safe to share: `inbox` is guarded by its mutex; `clients`, `lastLine`
    // and the scratch buffers are touched only by the I/O thread; the file
    // descriptors are immutable after init; `clientCount` is atomic.

    /// Limits that keep a broadcaster's memory bounded.
    struct Limits: Sendable {
        /// Connections beyond this are told so in one line and closed.
        var maxClients = 64
        /// SO_SNDBUF for each client socket in bytes: how much the kernel
        /// queues for a client that stopped reading, before coalescing starts
        /// (about 80 separate lines, 0.4 s at 200 Hz: a reader's scheduling
        /// hiccup loses nothing, a stalled reader is soon only sent the newest).
        var sendBufferBytes: Int32 = 64 * 1024
        /// States the producer may run ahead of the I/O thread.
        var inboxCapacity = 256
    }

    private let listeningSocket: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let limits: Limits
    private let logger: Logger
    private let onClientCountChange: @Sendable (Int) -> Void
    private let inbox: Mutex<BroadcastInbox>
    private let connectedClients = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    private var clients: [BroadcastClient] = []
    private var lastLine: [UInt8] = []

    /// Starts serving clients that connect to `listeningSocket`.
    ///
    /// - Parameters:
    ///   - listeningSocket: a bound, listening stream socket; the caller
    ///     keeps ownership and closes it after `stop()`.
    ///   - limits: client count and buffer limits.
    ///   - logger: connects and disconnects are logged at debug level.
    ///   - onClientCountChange: called on the I/O thread with the new number
    ///     of clients whenever it changes (for `--on-demand`).
    /// - Throws: `UnixSocketError` when the wake-up pipe cannot be made.
    init(listeningSocket: Int32, limits: Limits = Limits(),
         logger: Logger = Logger(label: "tiltd.socket"),
         onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw UnixSocketError.system(call: "pipe", path: "state broadcaster", errno: errno)
        }
        for fd in fds + [listeningSocket] { Self.makeNonBlocking(fd) }
        self.listeningSocket = listeningSocket
        self.wakeRead = fds[0]
        self.wakeWrite = fds[1]
        self.limits = limits
        self.logger = logger
        self.onClientCountChange = onClientCountChange
        self.inbox = Mutex(BroadcastInbox(capacity: limits.inboxCapacity))
        let thread = Thread { [self] in
            self.serve()
            self.finished.signal()
        }
        thread.name = "tiltd-broadcast"
        thread.start()
    }

    /// The number of connected clients.
    var clientCount: Int { connectedClients.load(ordering: .relaxed) }

    /// Hands `state` to the I/O thread. O(1); never blocks on clients.
    /// A no-op once `stop()` has begun.
    func emit(_ state: KnobState) {
        inbox.withLock { inbox in
            // The wake-up byte is written under the lock (a non-blocking
            // pipe write), so `stop()` cannot close the pipe in between.
            guard !inbox.stopping else { return }
            if inbox.push(state) { wake() }
        }
    }

    /// Drops the current state, so that clients connecting from now on wait
    /// for the next one instead of getting a stale state (the device was
    /// released by `--on-demand`).
    func forgetCurrentState() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.forgetCurrent = true
            if !inbox.wakePending {
                inbox.wakePending = true
                wake()
            }
        }
    }

    /// Stops the I/O thread and closes every client connection. Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        inbox.withLock { inbox in
            inbox.stopping = true
            wake()
        }
        finished.wait()
        for client in clients { Glibc.close(client.fileDescriptor) }
        clients.removeAll()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        // The pipe holds 64 KiB and the producer writes only while no wake-up
        // is pending, so this never blocks; EAGAIN would still mean "awake".
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    // MARK: I/O thread

    private func serve() {
        var sequence: UInt64 = 0
        var states: [KnobState] = []
        var batch: [UInt8] = []
        var lineStarts: [Int] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        var fds: [pollfd] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: listeningSocket, events: Int16(POLLIN), revents: 0))
            for client in clients {
                var events: Int16 = 0
                if client.readsData { events |= Int16(POLLIN) }
                if client.isBacklogged { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: client.fileDescriptor, events: events, revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("state broadcaster: poll failed: \(String(cString: strerror(errno))); clients stop receiving states")
                return
            }

            // Clients first: their indices match the `clients` snapshot.
            var departed: [Int] = []
            for (index, client) in clients.enumerated() {
                let revents = Int32(fds[index + 2].revents)
                if revents == 0 { continue }
                if revents & (POLLERR | POLLHUP | POLLNVAL) != 0 {
                    departed.append(index)
                    continue
                }
                if revents & POLLIN != 0 {
                    let n = scratch.withUnsafeMutableBytes { read(client.fileDescriptor, $0.baseAddress, $0.count) }
                    // Clients have nothing to say; a half-closed one is still a reader.
                    if n == 0 { client.readsData = false }
                    if n < 0 && errno != EAGAIN && errno != EINTR { departed.append(index); continue }
                }
                if revents & POLLOUT != 0, client.flush() == .gone { departed.append(index) }
            }
            drop(departed)

            if fds[0].revents != 0 {
                while scratch.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                states.removeAll(keepingCapacity: true)
                let (stopping, forget) = inbox.withLock { inbox -> (Bool, Bool) in
                    inbox.take(after: &sequence, into: &states)
                    defer { inbox.forgetCurrent = false }
                    return (inbox.stopping, inbox.forgetCurrent)
                }
                if !states.isEmpty {
                    batch.removeAll(keepingCapacity: true)
                    lineStarts.removeAll(keepingCapacity: true)
                    for state in states {
                        lineStarts.append(batch.count)
                        state.appendJSONLine(to: &batch)
                    }
                    lastLine.removeAll(keepingCapacity: true)
                    lastLine.append(contentsOf: batch[lineStarts[lineStarts.count - 1]...])
                    var gone: [Int] = []
                    for (index, client) in clients.enumerated()
                    where client.offer(batch, lineStarts: lineStarts) == .gone {
                        gone.append(index)
                    }
                    drop(gone)
                }
                // After the batch: the device was released after those states.
                if forget { lastLine.removeAll(keepingCapacity: true) }
                // The states emitted before stop() went out (to every client
                // that could take them without blocking); now finish.
                if stopping { return }
            }

            if fds[1].revents != 0 { acceptClients() }
        }
    }

    private func acceptClients() {
        while true {
            let fd = accept(listeningSocket, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    logger.warning("state socket: accept failed: \(String(cString: strerror(errno)))")
                }
                return
            }
            if clients.count >= limits.maxClients {
                let message = Array("{\"error\":\"too many clients (\(limits.maxClients)); try again later\"}\n".utf8)
                _ = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                Glibc.close(fd)
                logger.warning("state socket: refused a client, already \(limits.maxClients) connected")
                continue
            }
            Self.makeNonBlocking(fd)
            var size = limits.sendBufferBytes
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let client = BroadcastClient(fileDescriptor: fd)
            if !lastLine.isEmpty, client.offer(lastLine, lineStarts: [0]) == .gone {
                Glibc.close(fd)
                continue
            }
            clients.append(client)
            connectedClients.store(clients.count, ordering: .relaxed)
            logger.debug("state socket: client connected (\(clients.count) now)")
            onClientCountChange(clients.count)
        }
    }

    /// Sets O_NONBLOCK and FD_CLOEXEC (accept4/pipe2 are GNU extensions the
    /// Glibc module does not export).
    private static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    private func drop(_ indices: [Int]) {
        guard !indices.isEmpty else { return }
        for index in indices.reversed() {
            Glibc.close(clients[index].fileDescriptor)
            clients.remove(at: index)
        }
        connectedClients.store(clients.count, ordering: .relaxed)
        logger.debug("state socket: \(indices.count) client(s) left (\(clients.count) now)")
        onClientCountChange(clients.count)
    }
}
