import Glibc

/// One connected reader of the state stream, owned by `StateBroadcaster`'s
/// I/O thread.
///
/// Its queue holds at most two lines: the unsent rest of the line the kernel
/// accepted only in part (finished first, so the stream stays valid JSON
/// Lines) and the newest state that has not been sent yet, which each newer
/// state replaces. A client that stops reading therefore costs a bounded
/// amount of memory and later receives only the latest state.
final class BroadcastClient {
    /// The connected socket, non-blocking.
    let fileDescriptor: Int32
    /// The rest of a line the kernel took only in part.
    private(set) var inFlight: [UInt8] = []
    private var inFlightOffset = 0
    /// The newest line not yet handed to the kernel (coalesced).
    private(set) var latest: [UInt8] = []
    /// False once the client shut down its writing side: it is still read
    /// for hang-ups, but not for data.
    var readsData = true

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// True when bytes are waiting for the socket to become writable.
    var isBacklogged: Bool { inFlightOffset < inFlight.count || !latest.isEmpty }

    /// Outcome of handing bytes to the kernel.
    enum Delivery {
        /// Everything queued went out.
        case drained
        /// The socket is full; wait for POLLOUT.
        case pending
        /// The peer is gone (EPIPE, ECONNRESET, …): drop the client.
        case gone
    }

    /// Offers a batch of whole lines (`bytes`, with `lineStarts` the offset
    /// of each line) to this client.
    ///
    /// A client with nothing queued gets the whole batch written at once; if
    /// the kernel takes only part, the line it stopped in is finished later
    /// and the batch's last line becomes the one pending. A backlogged client
    /// only has its pending line replaced by the batch's last line.
    func offer(_ bytes: [UInt8], lineStarts: [Int]) -> Delivery {
        guard let lastStart = lineStarts.last else { return .drained }
        if isBacklogged {
            latest.removeAll(keepingCapacity: true)
            latest.append(contentsOf: bytes[lastStart...])
            return .pending
        }
        let written: Int
        switch send(bytes, from: 0) {
        case .failure: return .gone
        case .success(let count): written = count
        }
        if written == bytes.count { return .drained }
        // Find the line the kernel stopped in: finish that line later, then
        // send only the newest line of the batch.
        var lineIndex = lineStarts.count - 1
        while lineStarts[lineIndex] > written { lineIndex -= 1 }
        let isLast = lineIndex == lineStarts.count - 1
        if written > lineStarts[lineIndex] {
            let lineEnd = isLast ? bytes.count : lineStarts[lineIndex + 1]
            inFlight = Array(bytes[written..<lineEnd])
            inFlightOffset = 0
            if !isLast { latest = Array(bytes[lastStart...]) }
        } else {
            latest = Array(bytes[lastStart...])
        }
        return .pending
    }

    /// Writes what is queued, when the socket reported POLLOUT.
    func flush() -> Delivery {
        if inFlightOffset < inFlight.count {
            switch send(inFlight, from: inFlightOffset) {
            case .failure: return .gone
            case .success(let count): inFlightOffset += count
            }
            if inFlightOffset < inFlight.count { return .pending }
            inFlight.removeAll(keepingCapacity: true)
            inFlightOffset = 0
        }
        guard !latest.isEmpty else { return .drained }
        let line = latest
        latest = []
        switch send(line, from: 0) {
        case .failure: return .gone
        case .success(let count):
            guard count < line.count else { return .drained }
            inFlight = Array(line[count...])
            inFlightOffset = 0
            return .pending
        }
    }

    /// The peer's error when a send failed for good.
    struct Gone: Error { var errno: Int32 }

    /// Sends `bytes[offset...]` without blocking and without SIGPIPE.
    ///
    /// - Returns: the number of bytes the kernel took (0 when the socket is
    ///   full), or `Gone` when the peer has disconnected.
    private func send(_ bytes: [UInt8], from offset: Int) -> Result<Int, Gone> {
        var total = 0
        while offset + total < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fileDescriptor, raw.baseAddress! + offset + total,
                           raw.count - offset - total, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 {
                total += n
                continue
            }
            let error = errno
            if n < 0 && error == EINTR { continue }
            if n < 0 && (error == EAGAIN || error == EWOULDBLOCK) { return .success(total) }
            return .failure(Gone(errno: n == 0 ? EPIPE : error))
        }
        return .success(total)
    }
}
