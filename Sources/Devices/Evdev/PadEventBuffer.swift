/// The bytes read from an event node, handed out one whole `input_event`
/// at a time; a partial event's bytes wait for the rest.
///
/// Why tiltd reads the node itself instead of through `libevdev_next_event`:
/// libevdev's read path (`read_more_events`) reads as many events as its
/// queue has room for and, when the byte count is not a multiple of
/// `sizeof(struct input_event)`, returns -EINVAL — after the bytes were
/// consumed. The kernel's evdev never returns part of an event, but a node
/// faked by umockdev is a pty: its evemu player writes each event in one
/// `write` to the master, and the tty layer can hand the reader the first
/// bytes of it before the rest (more often on a loaded machine). Everything
/// that read delivered is then lost, and every later read starts inside an
/// event, so the stream stays misaligned until the node is reopened. Kept
/// here, the tail of a partial event simply completes with the next read.
///
/// A fixed buffer of `capacityEvents` events: filling never allocates after
/// `init`.
struct PadEventBuffer {
    /// The size of one event, `MemoryLayout<input_event>.size` (24 bytes
    /// with a 64-bit time_t).
    let eventSize: Int
    private var storage: [UInt8]
    /// Bytes not handed out yet: `storage[start..<end]`.
    private var start = 0
    private var end = 0

    /// What one `fill` got.
    enum Fill: Equatable {
        /// This many bytes arrived (possibly ending inside an event).
        case bytes(Int)
        /// Nothing to read now (EAGAIN): try again when the node is readable.
        case nothing
        /// The node's other side is gone (read returned 0).
        case endOfFile
    }

    init(eventSize: Int, capacityEvents: Int = 64) {
        precondition(eventSize > 0 && capacityEvents > 0)
        self.eventSize = eventSize
        storage = Array(repeating: 0, count: eventSize * capacityEvents)
    }

    /// Bytes held that do not make a whole event yet.
    var partialBytes: Int { (end - start) % eventSize }

    /// Reads once into the free space with `read`, which returns the bytes
    /// read, 0 at end of file, or nil for "nothing now" (EAGAIN).
    ///
    /// - Throws: what `read` throws.
    mutating func fill(_ read: (UnsafeMutableRawBufferPointer) throws -> Int?) rethrows -> Fill {
        if start > 0 {
            // Move the undelivered bytes (less than one event after `next`
            // drained the rest) to the front.
            let held = end - start
            if held > 0 {
                for index in 0..<held { storage[index] = storage[start + index] }
            }
            start = 0
            end = held
        }
        precondition(end < storage.count, "take the whole events with next() before filling again")
        let got = try storage.withUnsafeMutableBytes { bytes in
            try read(UnsafeMutableRawBufferPointer(rebasing: bytes[end...]))
        }
        guard let got else { return .nothing }
        guard got > 0 else { return .endOfFile }
        end += got
        return .bytes(got)
    }

    /// The next whole event, decoded by `decode` from its `eventSize` bytes;
    /// nil when no whole event is held.
    mutating func next<Event>(_ decode: (UnsafeRawBufferPointer) -> Event) -> Event? {
        guard end - start >= eventSize else { return nil }
        let event = storage.withUnsafeBytes { bytes in
            decode(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + eventSize)]))
        }
        start += eventSize
        return event
    }
}
