import DSU
import Glibc
import Motion
import SamplePath
import Testing
import TiltdTestSupport
import Traces

/// The server end to end over loopback UDP, with the protocol-description
/// client (`DSUTestClient`) and an injected clock.
@Suite(.timeLimit(.minutes(15))) struct DSUServerTests {
    static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path

    struct Served {
        let server: DSUServer
        let clock: ManualClock
        let counts: CountWatch
        let log: LogCapture
    }

    static func serve(maxClients: Int = 16) async throws -> Served {
        let clock = ManualClock(), counts = CountWatch(), log = LogCapture()
        var limits = DSUServer.Limits()
        limits.maxClients = maxClients
        let server = try await DSUServer(address: DSUAddress(host: "127.0.0.1", port: 0), limits: limits, clock: clock,
                                         machineID: "0123456789abcdef0123456789abcdef", logger: log.logger,
                                         onClientCountChange: counts.callback)
        return Served(server: server, clock: clock, counts: counts, log: log)
    }

    /// Waits (bounded) until the server has `count` subscribers' connected
    /// sockets open: each opens on the event loop just after its subscriber
    /// is counted, and closes just after it goes.
    static func clientSockets(_ server: DSUServer, become count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while server.openClientSockets != count {
            try #require(ContinuousClock.now < deadline,
                         "\(server.openClientSockets) client socket(s) open after 60 s, not \(count)")
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// A client that has asked for every controller's data, once the server counts it.
    static func subscribed(to served: Served) async throws -> DSUTestClient {
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        try await client.requestData()
        try await served.counts.wait(for: 1)
        return client
    }

    /// A server whose subscriptions last 200 ms on a clock that stands
    /// still until the test moves it: none can lapse before the test has
    /// seen it.
    static func shortLived() async throws -> (DSUServer, ManualClock, CountWatch) {
        var limits = DSUServer.Limits()
        limits.subscriptionLifetime = .milliseconds(200)
        let clock = ManualClock(), counts = CountWatch()
        let server = try await DSUServer(address: DSUAddress(host: "127.0.0.1", port: 0), limits: limits, clock: clock,
                                         machineID: "m", logger: LogCapture().logger, onClientCountChange: counts.callback)
        return (server, clock, counts)
    }

    static func clientSocketsClosed(_ server: DSUServer) async throws {
        try await clientSockets(server, become: 0)
    }

    static func sample(_ nanoseconds: Int64, gyro: SIMD3<Double>? = nil) -> PublishedSample {
        PublishedSample(reading: Reading(timestampNanoseconds: nanoseconds, acceleration: SIMD3(0, 0, 9.80665),
                                         rotationRate: gyro),
                        state: nil, correctedRotationRate: gyro)
    }

    @Test func answersTheVersionWithItsOwnIDAndAValidCRC() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        try await client.requestVersion()
        let answer = try await client.next()
        #expect(answer.bytes.count == 22)
        #expect(answer.type == 0x100000)
        #expect(answer.u16(20) == 1001)
        #expect(answer.serverID == served.server.serverID)
        #expect(served.log.lines.contains { $0.contains("serving DSU motion on udp:127.0.0.1:\(served.server.address.port)") })
        #expect(!served.log.lines.contains { $0.contains("authentication") })
    }

    @Test func answersPortsInfoForEachSlotAskedSlotZeroTheDevice() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        served.server.take(Self.sample(1_000, gyro: SIMD3(0, 0, 0)))
        try await client.requestPorts([0, 1, 2, 3])
        var answers: [DSUTestClient.Answer] = []
        for _ in 0..<4 { answers.append(try await client.next()) }
        #expect(answers.map(\.bytes.count) == [32, 32, 32, 32])
        #expect(answers.map(\.type) == [0x100001, 0x100001, 0x100001, 0x100001])
        #expect(answers.map(\.slot) == [0, 1, 2, 3])
        let device = answers[0]
        #expect(device.slotState == 2)
        #expect(device.model == 2)  // a gyroscope is fused
        #expect(device.connection == 0)
        #expect(device.battery == 0)
        #expect(device.mac != [0, 0, 0, 0, 0, 0])
        #expect(device.mac == served.server.controller.mac.array)
        for empty in answers.dropFirst() {
            #expect(empty.slotState == 0 && empty.model == 0 && empty.mac == [0, 0, 0, 0, 0, 0])
        }
        // Without a gyroscope: model 1.
        served.server.take(Self.sample(2_000))
        try await client.requestPorts([0])
        #expect(try await client.next().model == 1)
    }

    @Test func slotZeroCarriesTheBatteryItIsGiven() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        #expect(served.server.setBattery(.charging))
        try await client.requestPorts([0])
        #expect(try await client.next().battery == 0xEE)
        try await client.requestData()
        try await served.counts.wait(for: 1)
        served.server.setBattery(.medium)
        served.server.take(Self.sample(1_000))
        #expect(try await client.next().battery == 0x03)
        served.server.close()
        #expect(!served.server.setBattery(.full), "a closed server tells its battery reader to stop")
    }

    /// A lost device empties slot 0 (state 0, "not connected") in what
    /// clients are told; a released one stays connected, since a
    /// subscription opens it again.
    @Test func aLostDeviceLeavesSlotZeroNotConnectedAndAReleasedOneConnected() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        try await client.requestPorts([0])
        #expect(try await client.next().slotState == 2)
        served.server.deviceStopped(.released)
        try await client.requestPorts([0])
        #expect(try await client.next().slotState == 2)
        served.server.deviceStopped(.lost("iio:device0 vanished"))
        try await client.requestPorts([0])
        #expect(try await client.next().slotState == 0)
    }

    @Test func theMACIsStablePerMachineAndDevice() {
        let a = DSUMAC(machineID: "m1", deviceKey: "iio:accel_3d::display")
        #expect(a == DSUMAC(machineID: "m1", deviceKey: "iio:accel_3d::display"))
        #expect(a != DSUMAC(machineID: "m2", deviceKey: "iio:accel_3d::display"))
        #expect(a != DSUMAC(machineID: "m1", deviceKey: "evdev:1356:2508:pad"))
        #expect(a != .zero)
    }

    @Test func streamsOnePacketPerSampleWithTheRecordingsValues() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await Self.subscribed(to: served)
        let readings = try Recording.load(path: Self.recording).readings
        #expect(readings.count == 499)
        // The hub hands the server every sample; most are not gated states.
        let run = SampleRun(configuration: PipelineConfiguration(), sink: StateHub([served.server]),
                            reporter: DiagnosticReporter(subject: "test"))
        var pipeline = TiltPipeline(configuration: PipelineConfiguration())
        var gyroPackets = 0
        for (index, reading) in readings.enumerated() {
            _ = pipeline.process(reading)
            run.process(reading)
            let packet = try await client.next()
            #expect(packet.bytes.count == 100)
            #expect(packet.type == 0x100002)
            #expect(packet.bytes[31] == 1)
            #expect(packet.u32(32) == UInt32(index))
            #expect(packet.u64(68) == UInt64(reading.timestampNanoseconds / 1000))
            // docs/dsu.md: x = x, y = −z, z = −y (g); pitch = ωx, yaw = −ωz, roll = −ωy (deg/s).
            let g = reading.acceleration / 9.80665
            let expectedAcceleration = SIMD3<Float>(Float(g.x), Float(-g.z), Float(-g.y))
            #expect(farthest(packet.accelerationG, expectedAcceleration) < 1e-5)
            let rate = try #require(pipeline.correctedRotationRate) * (180 / .pi)
            let expectedRate = SIMD3<Float>(Float(rate.x), Float(-rate.z), Float(-rate.y))
            #expect(farthest(packet.gyroDegreesPerSecond, expectedRate) < 1e-3)
            // Bias-corrected: the raw rate less the fusion's bias.
            if rate != reading.rotationRate! * (180 / .pi) { gyroPackets += 1 }
            #expect(packet.model == 2)
        }
        #expect(gyroPackets > 0)
        #expect(run.stateCount < readings.count)
    }

    @Test func packetsAreNumberedPerControllerForEveryClient() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let first = try await DSUTestClient(serverPort: served.server.address.port)
        let second = try await DSUTestClient(serverPort: served.server.address.port)
        try await first.requestData()
        try await served.counts.wait(for: 1)
        for t in 0..<3 { served.server.take(Self.sample(Int64(t) * 4_000_000)) }
        try await second.requestData(flags: 1, slot: 0)
        try await served.counts.wait(for: 2)
        for t in 3..<5 { served.server.take(Self.sample(Int64(t) * 4_000_000)) }
        var firstNumbers: [UInt32] = [], secondNumbers: [UInt32] = []
        for _ in 0..<5 { firstNumbers.append(try await first.next().u32(32)) }
        for _ in 0..<2 {
            let packet = try await second.next()
            secondNumbers.append(packet.u32(32))
            #expect(packet.u64(68) >= 12_000)
        }
        #expect(firstNumbers == [0, 1, 2, 3, 4])
        #expect(secondNumbers == [3, 4])
    }

    @Test func aRequestForAnotherSlotOrMACGetsNoData() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        try await client.requestData(flags: 1, slot: 2)
        try await served.counts.wait(for: 1)
        served.server.take(Self.sample(1_000))
        try await client.requestData(flags: 2, mac: served.server.controller.mac.array)
        served.server.take(Self.sample(2_000))  // may race the re-request: either way no slot-2 packet
        try await client.requestVersion()
        var answer = try await client.next()
        if answer.type == 0x100002 {
            #expect(answer.u64(68) == 2)  // by MAC: the device's packet
            answer = try await client.next()
        }
        #expect(answer.type == 0x100000)
    }

    @Test func aClientIsDroppedFiveSecondsAfterItsLastRequest() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await Self.subscribed(to: served)
        served.clock.advance(by: .milliseconds(4_999))
        served.server.expireClients()
        #expect(served.server.clientCount == 1)
        served.server.take(Self.sample(1_000))
        #expect(try await client.next().u32(32) == 0)
        served.clock.advance(by: .milliseconds(1))
        served.server.expireClients()
        try await served.counts.wait(for: 0)
        served.server.take(Self.sample(2_000))  // nobody subscribed: nothing sent
        #expect(served.server.clientCount == 0)
        try await Self.clientSocketsClosed(served.server)  // until then its requests reach a closing socket
        try await client.requestVersion()
        #expect(try await client.next().type == 0x100000)
        // A re-request subscribes it again; the controller's counter goes on.
        try await client.requestData()
        try await served.counts.wait(for: 1)
        served.server.take(Self.sample(3_000))
        #expect(try await client.next().u32(32) == 1)
    }

    @Test(.timeLimit(.minutes(15))) func aClientThatStopsAskingIsDroppedByTheServersOwnWakeUpAndAnIdleServerArmsNone() async throws {
        let (server, clock, counts) = try await Self.shortLived()
        defer { server.close() }
        #expect(try await !server.expiryArmed, "no subscriber, yet a wake-up was armed")
        let client = try await DSUTestClient(serverPort: server.address.port)
        try await client.requestData()
        try await counts.wait(for: 1)
        #expect(try await server.expiryArmed)
        // Its time runs out. No sample and no expireClients() call: the
        // server's own wake-up (within 200 ms of real time) drops it.
        clock.advance(by: .milliseconds(200))
        try await counts.wait(for: 0)
        #expect(counts.latest == 0 && server.clientCount == 0)
        #expect(try await !server.expiryArmed, "the wake-up stayed armed with nobody subscribed")
    }

    @Test func garbageIsIgnoredWithoutAReply() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        var badCRC = DSUTestClient.request(type: 0x100000, message: [], id: 7)
        badCRC[9] ^= 0xFF
        let garbage: [[UInt8]] = [
            [], [0x44], Array("DSUC".utf8),
            badCRC,
            DSUTestClient.request(type: 0x100003, message: [], id: 7),  // unknown type
            DSUTestClient.request(type: 0x100001, message: DSUTestClient.le(Int32(5)) + [0, 1, 2, 3, 4], id: 7),
            DSUTestClient.request(type: 0x100001, message: DSUTestClient.le(Int32(4)) + [0, 1], id: 7),
            DSUTestClient.request(type: 0x100002, message: [0, 0, 0], id: 7),
            DSUTestClient.request(type: 0x100000, message: [], id: 7) + [0],  // length disagrees
            [UInt8](repeating: 0x41, count: 1_400),  // oversized
            Array("DSUS".utf8) + Array(DSUTestClient.request(type: 0x100000, message: [], id: 7).dropFirst(4)),
        ]
        for datagram in garbage { try await client.send(datagram) }
        try await client.requestVersion()
        // The first answer is the version's: nothing answered the garbage.
        #expect(try await client.next().type == 0x100000)
        #expect(served.server.clientCount == 0)
    }

    @Test func portsInfoNeverAnswersMoreThanTheSlotsAsked() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await DSUTestClient(serverPort: served.server.address.port)
        // Slot 0 four times and slots beyond the four: one answer.
        try await client.requestPorts([0, 0, 9, 0])
        try await client.requestVersion()
        #expect(try await client.next().type == 0x100001)
        #expect(try await client.next().type == 0x100000)
    }

    @Test func whenFullTheClientThatAskedLeastRecentlyYields() async throws {
        let served = try await Self.serve(maxClients: 2)
        defer { served.server.close() }
        var clients: [DSUTestClient] = []
        for _ in 0..<3 { clients.append(try await DSUTestClient(serverPort: served.server.address.port)) }
        try await clients[0].requestData()
        try await served.counts.wait(for: 1)
        served.clock.advance(by: .seconds(1))
        try await clients[1].requestData()
        try await served.counts.wait(for: 2)
        served.clock.advance(by: .seconds(1))
        try await clients[2].requestData()
        try await clients[2].requestVersion()
        #expect(try await clients[2].next().type == 0x100000)  // the version answer proves the data request was read
        served.server.take(Self.sample(1_000))
        #expect(try await clients[1].next().type == 0x100002)
        #expect(try await clients[2].next().type == 0x100002)
        try await Self.clientSockets(served.server, become: 2)  // the one that yielded closed its own
        try await clients[0].requestVersion()
        #expect(try await clients[0].next().type == 0x100000)  // no data packet before it
        #expect(served.server.clientCount == 2)
        #expect(served.log.lines.filter { $0.contains("yielded") }.count == 1)
    }

    @Test func subscribersCountAsDemandForTheDevice() async throws {
        let demand = DemandCount(), clock = ManualClock()
        let server = try await DSUServer(address: DSUAddress(host: "127.0.0.1", port: 0), clock: clock, machineID: "m",
                                         logger: LogCapture().logger, onClientCountChange: { demand.set(.dsu, $0) })
        defer { server.close() }
        demand.busClaims(1)
        let client = try await DSUTestClient(serverPort: server.address.port)
        try await client.requestData()
        var sequence: UInt64 = 0
        while let (next, total) = await demand.next(after: sequence), total != 2 { sequence = next }
        clock.advance(by: .seconds(5))
        server.expireClients()
        #expect(demand.total == 1)
    }

    @Test func closingStopsTheStream() async throws {
        let served = try await Self.serve()
        let client = try await Self.subscribed(to: served)
        served.server.close()
        served.server.take(Self.sample(1_000))  // after close: not sent, no crash
        served.server.close()
        try await served.counts.wait(for: 0)  // the subscribers go, and their sockets with them
        #expect(served.server.clientCount == 0)
        try await Self.clientSocketsClosed(served.server)
        withExtendedLifetime(client) {}  // subscribed throughout
    }

    @Test func aSubscribersRenewalsReachTheServerThroughItsOwnSocket() async throws {
        // A subscriber's requests arrive on the socket connected to it, not
        // the server's; they must renew it and be answered all the same.
        let served = try await Self.serve()
        defer { served.server.close() }
        let client = try await Self.subscribed(to: served)
        try await Self.clientSockets(served.server, become: 1)
        served.server.take(Self.sample(1_000))
        #expect(try await client.next().u32(32) == 0)
        served.clock.advance(by: .seconds(4))
        try await client.requestData()
        try await client.requestVersion()
        // Answered in order on one socket: the renewal was read before this.
        #expect(try await client.next().type == 0x100000)
        served.clock.advance(by: .seconds(4))  // 8 s after the first request, 4 s after the renewal
        served.server.expireClients()
        #expect(served.server.clientCount == 1)
        served.server.take(Self.sample(2_000))
        #expect(try await client.next().u32(32) == 1)
    }

    /// A subscriber whose port answers "unreachable" (its socket closed, or
    /// a forged sender address nobody listens at) stops getting the stream
    /// at once, not 5 s later.
    @Test func aSubscriberWhosePortRefusesPacketsIsDropped() async throws {
        let served = try await Self.serve()
        defer { served.server.close() }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = served.server.address.port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let request = DSUTestClient.request(type: 0x100002, message: [0, 0, 0, 0, 0, 0, 0, 0], id: 5)
        request.withUnsafeBytes { _ = send(fd, $0.baseAddress, $0.count, 0) }
        try await served.counts.wait(for: 1)
        close(fd)
        // The clock never moves: only the refusal can drop it.
        var sample: Int64 = 1_000
        let deadline = ContinuousClock.now + .seconds(30)
        while served.server.clientCount > 0 {
            try #require(ContinuousClock.now < deadline, "still subscribed after 30 s of refused packets")
            served.server.take(Self.sample(sample))
            sample += 5_000_000
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(served.counts.latest == 0)
    }

    @Test func theServersPortStaysItsOwn() async throws {
        // SO_REUSEPORT lets a subscriber's socket share the port; a second
        // server must still be refused it.
        let served = try await Self.serve()
        defer { served.server.close() }
        await #expect(throws: DSUServer.Failure.socket(address: served.server.address, step: .bindPortInUse,
                                                      reason: "Address already in use")) {
            _ = try await DSUServer(address: served.server.address, clock: ManualClock(), machineID: "m",
                                    logger: LogCapture().logger)
        }
    }
}
