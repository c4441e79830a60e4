import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A DSU client written from the protocol description (SPEC §16), not from
/// the server's code: it builds requests byte by byte, checks every answer's
/// header and CRC with its own bitwise CRC-32, and reads the fields by offset.
public final class DSUTestClient: @unchecked Sendable {
    /// One answer, its header checked.
    public struct Answer {
        public var bytes: [UInt8]
        public var type: UInt32 { u32(16) }
        public var serverID: UInt32 { u32(12) }
        public func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        public func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        public func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) } }
        public func float(_ at: Int) -> Float { Float(bitPattern: u32(at)) }
        /// Slot, state, model, connection, MAC, battery (bytes 20–30).
        public var slot: UInt8 { bytes[20] }
        public var slotState: UInt8 { bytes[21] }
        public var model: UInt8 { bytes[22] }
        public var connection: UInt8 { bytes[23] }
        public var mac: [UInt8] { Array(bytes[24..<30]) }
        public var battery: UInt8 { bytes[30] }
        public var accelerationG: SIMD3<Float> { SIMD3(float(76), float(80), float(84)) }
        public var gyroDegreesPerSecond: SIMD3<Float> { SIMD3(float(88), float(92), float(96)) }
    }

    public enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        case timedOut(seconds: Int64)
        public var description: String {
            switch self {
            case .malformed(let why): why
            case .timedOut(let seconds): "no answer within \(seconds) s"
            }
        }
    }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// Datagrams, and the failure bounds `next()` schedules (by number).
    private enum Arrival { case datagram([UInt8], from: SocketAddress), deadline(Int) }
    private var iterator: AsyncStream<Arrival>.Iterator
    private let continuation: AsyncStream<Arrival>.Continuation
    private var deadlines = 0
    public let id: UInt32
    public let server: SocketAddress

    public init(serverPort: UInt16, id: UInt32 = .random(in: 1...UInt32.max)) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Arrival.self)
        // An event loop of its own: the shared one serves every other
        // test's clients, and a busy suite could hold this one's reads (and
        // requests) back past the server's 5 s or `next()`'s bound.
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        channel = try await DatagramBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Receiver(continuation: continuation))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        iterator = stream.makeAsyncIterator()
        self.continuation = continuation
        self.id = id
        server = try SocketAddress(ipAddress: "127.0.0.1", port: Int(serverPort))
    }

    deinit {
        let group = self.group
        channel.close().whenComplete { _ in group.shutdownGracefully { _ in } }
    }

    /// Sends raw bytes (garbage included).
    public func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: server, data: ByteBuffer(bytes: bytes)))
    }

    /// A request as the protocol describes it: header with CRC, type, message.
    public static func request(type: UInt32, message: [UInt8], id: UInt32) -> [UInt8] {
        var packet = Array("DSUC".utf8) + le(UInt16(1001)) + le(UInt16(4 + message.count)) + le(UInt32(0)) + le(id)
        packet += le(type) + message
        let crc = crc32(packet)
        packet.replaceSubrange(8..<12, with: le(crc))
        return packet
    }

    public func requestVersion() async throws { try await send(Self.request(type: 0x100000, message: [], id: id)) }

    public func requestPorts(_ slots: [UInt8]) async throws {
        try await send(Self.request(type: 0x100001, message: Self.le(Int32(slots.count)) + slots, id: id))
    }

    /// Sends `requests` now and again every `interval` while the client is
    /// open, as emulators do (a subscription lapses 5 s after its last
    /// request), so a request lost on a loaded machine is repeated.
    public func keepSending(_ requests: [[UInt8]], every interval: TimeAmount = .seconds(1)) {
        let channel = self.channel, server = self.server
        channel.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { task in
            guard channel.isActive else { return task.cancel() }
            for request in requests {
                channel.writeAndFlush(AddressedEnvelope(remoteAddress: server, data: ByteBuffer(bytes: request)), promise: nil)
            }
        }
    }

    /// flags 0: every controller; 1: by slot; 2: by MAC.
    public func requestData(flags: UInt8 = 0, slot: UInt8 = 0, mac: [UInt8] = [0, 0, 0, 0, 0, 0]) async throws {
        try await send(Self.request(type: 0x100002, message: [flags, slot] + mac, id: id))
    }

    /// The next answer, its sender (the server's address and port), header
    /// and CRC checked.
    ///
    /// - Parameter seconds: bounds a failure (a server that never answers),
    ///   never a success: generous for loaded machines.
    public func next(within seconds: Int64 = 60) async throws -> Answer {
        deadlines += 1
        let deadline = deadlines, continuation = self.continuation
        let timer = channel.eventLoop.scheduleTask(in: .seconds(seconds)) { continuation.yield(.deadline(deadline)) }
        defer { timer.cancel() }
        var received: [UInt8]?
        while received == nil {
            switch await iterator.next() {
            case .datagram(let bytes, let sender):
                // As a client that reads only its server's datagrams: every
                // answer leaves from the port it asked.
                guard sender == server else { throw Failure.malformed("a datagram from \(sender), not the server \(server)") }
                received = bytes
            case .deadline(let number) where number == deadline: throw Failure.timedOut(seconds: seconds)
            case .deadline: continue  // an earlier call's, cancelled too late
            case nil: throw Failure.malformed("the client closed")
            }
        }
        let bytes = received!
        guard bytes.count >= 20, Array(bytes[0..<4]) == Array("DSUS".utf8) else { throw Failure.malformed("no DSUS header") }
        let answer = Answer(bytes: bytes)
        guard answer.u16(4) == 1001 else { throw Failure.malformed("protocol \(answer.u16(4))") }
        guard Int(answer.u16(6)) == bytes.count - 16 else { throw Failure.malformed("length \(answer.u16(6)) for \(bytes.count) bytes") }
        var zeroed = bytes
        zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        guard answer.u32(8) == Self.crc32(zeroed) else { throw Failure.malformed("CRC") }
        return answer
    }

    public static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// zlib's CRC-32, bit by bit.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private final class Receiver: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let continuation: AsyncStream<Arrival>.Continuation
        init(continuation: AsyncStream<Arrival>.Continuation) { self.continuation = continuation }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = unwrapInboundIn(data)
            continuation.yield(.datagram(Array(envelope.data.readableBytesView), from: envelope.remoteAddress))
        }
        func channelInactive(context: ChannelHandlerContext) { continuation.finish() }
    }
}

/// `tiltd replay --realtime --dsu` as the system tests run it.
extension DSUTestClient {
    /// The recording with a gyroscope the DSU tests replay.
    public static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path

    /// The port from "serving DSU motion on udp:127.0.0.1:PORT".
    public static func port(in stderr: String) -> UInt16? {
        guard let range = stderr.range(of: "serving DSU motion on udp:127.0.0.1:") else { return nil }
        return UInt16(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// The recording played sixty times end to end (ten minutes), so the
    /// replay outlasts a test delayed by a loaded machine: a replay exits at
    /// its end, and two minutes were once not enough (a loaded run of the
    /// whole suite held a test back past them; tests SIGTERM it when done).
    public static func longRecording() throws -> String {
        let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").map(String.init)
        let samples = lines.filter { $0.hasPrefix("s ") }
        func time(_ line: String) -> Int64 { Int64(line.split(separator: " ")[1])! }
        let period = time(samples.last!) - time(samples.first!) + 20_000_000
        var text = lines.filter { !$0.hasPrefix("s ") }
        for copy in 0..<Int64(60) {
            for line in samples {
                var fields = line.split(separator: " ").map(String.init)
                fields[1] = String(time(line) + copy * period)
                text.append(fields.joined(separator: " "))
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-dsu-\(UUID().uuidString).trace").path
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// The server's client counts as they change, for waiting on a subscription
/// (the request is read on the event loop) instead of guessing. Every wait
/// has a deadline and ends early when its task is cancelled (a test's time
/// limit): a count that never comes fails that test, naming what it waited
/// for, instead of holding the whole run.
public final class CountWatch: Sendable {
    public struct Timeout: Error, CustomStringConvertible {
        public var description: String
    }

    private struct Waiter {
        var id: UInt64
        var count: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var count: Int?
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The latest count reported (nil before the first).
    public var latest: Int? { state.withLock { $0.count } }

    public var callback: @Sendable (Int) -> Void {
        { [self] count in
            let ready = state.withLock { state in
                state.count = count
                let ready = state.waiters.filter { $0.count == count }.map(\.continuation)
                state.waiters.removeAll { $0.count == count }
                return ready
            }
            for continuation in ready { continuation.resume(returning: true) }
        }
    }

    /// Waits until the latest report says `count`.
    ///
    /// - Throws: `Timeout` when `seconds` pass first (generous: it bounds a
    ///   failure, never a success), or the task is cancelled.
    public func wait(for count: Int, within seconds: Int64 = 60) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let end: @Sendable () -> Void = { [self] in
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
        let deadline = Task {
            try? await Task.sleep(for: .seconds(seconds))
            end()
        }
        defer { deadline.cancel() }
        let reached = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool? in
                    if state.count == count { return true }
                    if Task.isCancelled { return false }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            end()
        }
        guard reached else {
            throw Timeout(description: "waited \(seconds) s for \(count) client(s); the last count was "
                + (latest.map(String.init) ?? "never reported") + (Task.isCancelled ? " (cancelled)" : ""))
        }
    }
}
