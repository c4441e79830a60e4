import Foundation
import Glibc
import Motion
import Testing
import TiltdTestSupport
import Traces

/// `tiltd replay --realtime --dsu` as a spawned process, read by the
/// protocol-description client (TiltdTestSupport/DSUTestClient).
@Suite(.timeLimit(.minutes(15))) struct DSUSystemTests {
    @Test func aRealtimeReplayStreamsTheRecordingsSamplesAndSIGTERMClosesTheSocket() async throws {
        let recording = try DSUTestClient.longRecording()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let readings = try Recording.load(path: recording).readings
        let byMicroseconds = Dictionary(readings.map { (UInt64($0.timestampNanoseconds / 1000), $0) },
                                        uniquingKeysWith: { first, _ in first })
        let tiltd = try SocketTiltdProcess(["replay", recording, "--realtime", "--dsu", "0"])
        // Ready when it says where it serves (port 0: a free one). Waited
        // for off the cooperative pool, which the client's NIO tasks need.
        let ready = try await TestThreadExecutor.offPool { tiltd.waitFor { DSUTestClient.port(in: tiltd.stderr) != nil } }
        #expect(ready, "\(tiltd.stderr)")
        let port = try #require(DSUTestClient.port(in: tiltd.stderr))
        #expect(!tiltd.stderr.contains("authentication"))
        let client = try await DSUTestClient(serverPort: port)
        // Data for every controller and slot 0's port, re-requested every
        // second as an emulator does.
        client.keepSending([DSUTestClient.request(type: 0x100002, message: [0, 0, 0, 0, 0, 0, 0, 0], id: client.id),
                            DSUTestClient.request(type: 0x100001, message: DSUTestClient.le(Int32(1)) + [0], id: client.id)])
        var previous: DSUTestClient.Answer?
        var info: DSUTestClient.Answer?
        var first: UInt32?
        while previous == nil || info == nil {  // the ports answer comes among the first data packets
            let packet = try await client.next()
            if packet.type == 0x100001 { info = packet } else { first = first ?? packet.u32(32); previous = packet }
        }
        #expect(info?.slot == 0 && info?.slotState == 2 && info?.mac != [0, 0, 0, 0, 0, 0])
        #expect(first == 0)
        for _ in 0..<25 {
            var packet = try await client.next()
            while packet.type == 0x100001 { packet = try await client.next() }  // a repeated ports answer
            #expect(packet.type == 0x100002 && packet.bytes.count == 100)
            // Every sample, each the recording's own, in order.
            let reading = try #require(byMicroseconds[packet.u64(68)], "timestamp \(packet.u64(68)) µs is no sample's")
            let g = reading.acceleration / 9.80665  // standard gravity, m/s² per g
            #expect(abs(packet.accelerationG.x - Float(g.x)) < 1e-4)
            #expect(abs(packet.accelerationG.y + Float(g.z)) < 1e-4)
            #expect(abs(packet.accelerationG.z + Float(g.y)) < 1e-4)
            if let previous {
                #expect(packet.u32(32) == previous.u32(32) + 1)
                let index = readings.firstIndex { UInt64($0.timestampNanoseconds / 1000) == previous.u64(68) }!
                #expect(packet.u64(68) == UInt64(readings[index + 1].timestampNanoseconds / 1000))
            }
            previous = packet
        }
        let stopped = try await TestThreadExecutor.offPool { tiltd.stop(with: SIGTERM) }
        #expect(stopped && tiltd.process.terminationStatus == 0, "\(tiltd.stderr)")
        #expect(tiltd.stderr.contains("SIGTERM: stopping"))
        // The socket is gone: binding its port again succeeds.
        let again = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(again) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(again, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
    }
}
