import Glibc

/// A self-pipe that wakes a thread blocked in poll(2) (the bus thread, the
/// monitor's loop): written from any thread, read only by the thread that
/// polls `reader`. Both ends are close-on-exec and non-blocking, and closed
/// with the pipe, so a late `wake()` never writes to a reused descriptor.
final class WakePipe: Sendable {
    /// The end to poll for `POLLIN`.
    let reader: Int32
    private let writer: Int32

    /// - Throws: `TiltBusError.busFailed` naming `bus` when no pipe can be made.
    init(bus: String) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw TiltBusError.busFailed(bus: bus, operation: "pipe", reason: String(cString: strerror(errno)))
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        (reader, writer) = (ends[0], ends[1])
    }

    deinit {
        close(reader)
        close(writer)
    }

    /// Makes `reader` readable (any thread); a full pipe is already a pending wake-up.
    func wake() {
        var one: UInt8 = 1
        _ = write(writer, &one, 1)
    }

    /// Empties the pipe, on the polling thread.
    func drain() {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(reader, &drained, drained.count) > 0 {}
    }
}
