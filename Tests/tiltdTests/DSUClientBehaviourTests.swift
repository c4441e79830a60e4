import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// `tiltd replay --realtime --dsu` against what emulators and attackers
/// really send (SPEC §17): Cemu's request after every message, a server
/// stalled by SIGSTOP under a client that renews every 3 s, squatters
/// holding the client table, and a descriptor flood under `ulimit -n 64`.
@Suite(.serialized, .timeLimit(.minutes(15))) struct DSUClientBehaviourTests {
    static let dataType: UInt32 = 0x100002
    static let portsType: UInt32 = 0x100001

    /// A started `tiltd replay --realtime --dsu 0` of the long recording.
    struct Served {
        let tiltd: SocketTiltdProcess
        let port: UInt16
        let recording: String
    }

    static func serve(launcher: String? = nil, extra: [String] = []) async throws -> Served {
        let recording = try DSUTestClient.longRecording()
        let tiltd = try SocketTiltdProcess(launcher: launcher, ["replay", recording, "--realtime", "--dsu", "0"] + extra)
        let ready = try await TestThreadExecutor.offPool { tiltd.waitFor { DSUTestClient.port(in: tiltd.stderr) != nil } }
        try #require(ready, "no DSU port announced: \(tiltd.stderr)")
        return Served(tiltd: tiltd, port: try #require(DSUTestClient.port(in: tiltd.stderr)), recording: recording)
    }

    static func finish(_ served: Served) async throws {
        let stopped = try await TestThreadExecutor.offPool { served.tiltd.stop(with: SIGTERM) }
        #expect(stopped && served.tiltd.process.terminationStatus == 0, "\(served.tiltd.stderr)")
        try? FileManager.default.removeItem(atPath: served.recording)
    }

    static func dataRequest(slot: UInt8, id: UInt32) -> [UInt8] {
        DSUTestClient.request(type: dataType, message: [1, slot, 0, 0, 0, 0, 0, 0], id: id)
    }

    /// Cemu on one socket: a version request, port info for slots 0–3, then
    /// after every message it reads a data request for that message's slot,
    /// and its list refreshed (port info 0–3) every 250 messages. The data
    /// keep coming for 20 s of the recording's time (each next packet
    /// within 30 s), each numbered one above the last, each sample later
    /// than the last. How many of the 1,000 samples reach the client
    /// depends on how fast it reads: the server drops, uncounted, what a
    /// full socket cannot take (a loaded machine's client got 561).
    @Test func cemusRequestSequenceKeepsEverySampleComingFor20Seconds() async throws {
        let served = try await Self.serve()
        let client = try await DSUTestClient(serverPort: served.port)
        try await client.requestVersion()
        try await client.requestPorts([0, 1, 2, 3])
        var firstTime: UInt64?, lastTime: UInt64 = 0, lastCounter: UInt32?
        var messages = 0, dataPackets = 0
        while firstTime.map({ lastTime - $0 < 20_000_000 }) ?? true {
            let answer = try await client.next(within: 30)
            messages += 1
            if answer.type == Self.dataType {
                dataPackets += 1
                let counter = answer.u32(32), time = answer.u64(68)
                if let lastCounter {
                    #expect(counter == lastCounter &+ 1, "packet \(counter) after \(lastCounter)")
                    #expect(time > lastTime, "motion time \(time) µs after \(lastTime) µs")
                    if counter != lastCounter &+ 1 { break }
                }
                lastCounter = counter
                firstTime = firstTime ?? time
                lastTime = time
            }
            try await client.send(Self.dataRequest(slot: answer.slot, id: client.id))
            if messages % 250 == 0 { try await client.requestPorts([0, 1, 2, 3]) }
        }
        #expect(lastTime - (firstTime ?? lastTime) >= 20_000_000, "the data stopped after \(dataPackets) packets")
        print("\(dataPackets) of the recording's 1,000 samples in 20 s reached the client")
        try await Self.finish(served)
    }

    /// Citra renews every 3 s and ignores a packet whose number is not
    /// above the last. The server stopped for 3 s just before a renewal
    /// was due finds that renewal waiting, and numbers on from where it was.
    @Test func aServerStoppedForThreeSecondsNumbersOnWhereItWas() async throws {
        let served = try await Self.serve()
        let pid = try #require(served.tiltd.tiltdPID)
        let client = try await DSUTestClient(serverPort: served.port)
        try await client.requestData()
        let asked = ContinuousClock.now
        // 2.5 s after the request on the wall clock (however far behind this
        // client reads): the subscription then has 2.5 s left, less than
        // the stop, so it lapses while tiltd is stopped.
        var last = try await client.next()
        while ContinuousClock.now < asked + .milliseconds(2_500) { last = try await client.next() }
        kill(pid, SIGSTOP)
        // Citra's renewal, 3 s after its request: queued while tiltd is stopped.
        try await client.requestData()
        try await TestThreadExecutor.offPool { usleep(3_000_000) }
        kill(pid, SIGCONT)
        var after: [UInt32] = []
        while after.count < 200 { after.append(try await client.next().u32(32)) }
        let beforeStop = last.u32(32)
        #expect(after.allSatisfy { $0 > beforeStop }, "the counter went back after the stop: \(beforeStop) → \(after.prefix(20))")
        #expect(zip(after, after.dropFirst()).allSatisfy { $0 < $1 }, "\(after.prefix(40))")
        try await Self.finish(served)
    }

    /// A UDP socket that never reads (its receive buffer simply fills).
    final class Squatter: @unchecked Sendable {
        let fd: Int32
        init(port: UInt16) throws {
            fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            try #require(fd >= 0)
            var size: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(connected == 0)
        }
        func send(_ bytes: [UInt8]) { bytes.withUnsafeBytes { _ = Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        deinit { close(fd) }
    }

    /// Sixteen sockets that each ask for data every 4 s hold the sixteen
    /// places; a client renewing every 3 s, as Citra and yuzu do, still gets
    /// every sample for 10 s of the recording.
    @Test func squattersCannotLockAnEmulatorOut() async throws {
        let served = try await Self.serve()
        let squatters = try (0..<16).map { _ in try Squatter(port: served.port) }
        let request = DSUTestClient.request(type: Self.dataType, message: [0, 0, 0, 0, 0, 0, 0, 0], id: 7)
        // All sixteen ask first (the server reads its socket in order, so
        // before the emulator), then each again every 4 s.
        for squatter in squatters { squatter.send(request) }
        let squatting = Task {
            while !Task.isCancelled {
                for squatter in squatters {
                    try? await Task.sleep(for: .milliseconds(250))
                    squatter.send(request)
                }
            }
        }
        defer { squatting.cancel() }
        let client = try await DSUTestClient(serverPort: served.port)
        client.keepSending([DSUTestClient.request(type: Self.dataType, message: [0, 0, 0, 0, 0, 0, 0, 0], id: client.id)],
                           every: .seconds(3))
        let first = try await client.next(within: 30)
        var last = first
        while last.u64(68) - first.u64(68) < 10_000_000 {
            let packet = try await client.next(within: 30)
            #expect(packet.u32(32) == last.u32(32) &+ 1, "packet \(packet.u32(32)) after \(last.u32(32))")
            if packet.u32(32) != last.u32(32) &+ 1 { break }
            last = packet
        }
        squatting.cancel()
        #expect(served.tiltd.stderr.contains("yielded"), "\(served.tiltd.stderr)")
        try await Self.finish(served)
    }
}
