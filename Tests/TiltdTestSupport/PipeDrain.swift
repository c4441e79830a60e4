import Foundation
import Glibc
import Synchronization

/// Collects everything written to a pipe, read with blocking read(2) on a
/// thread of its own until end of file.
///
/// Not `FileHandle.readabilityHandler`: each handler is a libdispatch read
/// source, and tearing those down while other threads start processes
/// corrupts libdispatch's epoll bookkeeping on Linux (a known
/// swift-corelibs-libdispatch bug, number 949 in its tracker); it crashed the whole test process in `_dispatch_event_loop_drain`
/// in a loaded full run. A blocking read registers nothing with libdispatch.
public final class PipeDrain: Sendable {
    private let collected = LockedData()
    private let ended = Atomic<Bool>(false)

    /// Starts reading `handle`, which stays open until end of file (then the
    /// thread ends and lets it go). When a leftover grandchild keeps the
    /// write end open, the thread and the descriptor outlive the test: that
    /// is a test process, and it is preferable to cutting the output short.
    public init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            let fd = handle.fileDescriptor
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    self.collected.append(Data(chunk[..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            withExtendedLifetime(handle) { self.ended.store(true, ordering: .releasing) }
        }
        thread.start()
    }

    /// What has arrived so far.
    public var data: Data { collected.value }

    /// What `process` wrote to this pipe so far, as text; once it has ended,
    /// all of it: seeing the exit does not mean this thread has read the
    /// last bytes yet (under load it may not have), so wait for end of file.
    public func text(of process: Process) -> String {
        if !process.isRunning { waitForEnd(within: 5) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits up to `seconds` for end of file (every writer closed), polling
    /// every 5 ms; true when it came.
    @discardableResult
    public func waitForEnd(within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !ended.load(ordering: .acquiring) {
            if Date() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
