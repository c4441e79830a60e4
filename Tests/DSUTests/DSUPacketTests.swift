@testable import DSU
import Testing

@Suite(.timeLimit(.minutes(5))) struct DSUPacketTests {
    let controller = DSUController(slot: 0, state: .connected, model: .fullGyro,
                                   mac: DSUMAC(machineID: "0123456789abcdef0123456789abcdef", deviceKey: "bmi260 i2c"),
                                   battery: .high)

    /// Checks the header every server packet carries and returns the body.
    func checkHeader(_ packet: [UInt8], bytes: Int, type: UInt32, serverID: UInt32) {
        #expect(packet.count == bytes)
        #expect(Array(packet[0..<4]) == Array("DSUS".utf8))
        #expect(Array(packet[4..<6]) == ClientDatagram.le(UInt16(1001)))
        #expect(Array(packet[6..<8]) == ClientDatagram.le(UInt16(bytes - 16)))
        var zeroed = packet
        zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        #expect(Array(packet[8..<12]) == ClientDatagram.le(ClientDatagram.referenceCRC32(zeroed)))
        #expect(Array(packet[12..<16]) == ClientDatagram.le(serverID))
        #expect(Array(packet[16..<20]) == ClientDatagram.le(type))
    }

    @Test func versionAnswer() {
        let packet = DSUPacket.version(serverID: 77)
        checkHeader(packet, bytes: 22, type: 0x10_0000, serverID: 77)
        #expect(Array(packet[20..<22]) == ClientDatagram.le(UInt16(1001)))
    }

    @Test func portInfoAnswerCarriesTheControllerBlock() {
        let packet = DSUPacket.portInfo(controller, serverID: 5)
        checkHeader(packet, bytes: 32, type: 0x10_0001, serverID: 5)
        #expect(Array(packet[20..<24]) == [0, 2, 2, 0])
        #expect(Array(packet[24..<30]) == controller.mac.array)
        #expect(packet[30] == 0x04)
        #expect(packet[31] == 0)
        let empty = DSUPacket.portInfo(.empty(slot: 3), serverID: 5)
        #expect(Array(empty[20..<32]) == [3] + [UInt8](repeating: 0, count: 11))
    }

    @Test func dataPacketLayout() {
        let motion = DSUMotion(timestampMicroseconds: 0x0102_0304_0506_0708,
                               accelerationG: SIMD3(0.25, -1, 0.5), rotationDegreesPerSecond: SIMD3(10, -20.5, 30))
        var packet = DSUDataPacket(controller: controller, motion: motion, serverID: 9)
        packet.stamp(packetNumber: 41)
        let bytes = packet.bytes
        checkHeader(bytes, bytes: 100, type: 0x10_0002, serverID: 9)
        #expect(bytes[31] == 1)
        #expect(Array(bytes[32..<36]) == ClientDatagram.le(UInt32(41)))
        #expect(Array(bytes[36..<40]) == [0, 0, 0, 0], "buttons, PS, touch button")
        #expect(Array(bytes[40..<44]) == [128, 128, 128, 128], "sticks centred")
        #expect(bytes[44..<68].allSatisfy { $0 == 0 }, "analog buttons and touches")
        #expect(Array(bytes[68..<76]) == ClientDatagram.le(UInt64(0x0102_0304_0506_0708)))
        let floats = (0..<6).map { (index: Int) -> Float in
            var pattern: UInt32 = 0
            for byte in 0..<4 { pattern |= UInt32(bytes[76 + 4 * index + byte]) << (8 * byte) }
            return Float(bitPattern: pattern)
        }
        #expect(floats == [0.25, -1, 0.5, 10, -20.5, 30])
        packet.stamp(packetNumber: 42)
        checkHeader(packet.bytes, bytes: 100, type: 0x10_0002, serverID: 9)
        #expect(Array(packet.bytes[32..<36]) == ClientDatagram.le(UInt32(42)))
    }

    @Test func updatedPacketMatchesAFreshOneInTheSameStorage() {
        let first = DSUMotion(timestampMicroseconds: 1, accelerationG: SIMD3(0, 0, 1), rotationDegreesPerSecond: .zero)
        let second = DSUMotion(timestampMicroseconds: 0x0102_0304_0506_0708,
                               accelerationG: SIMD3(0.25, -1, 0.5), rotationDegreesPerSecond: SIMD3(10, -20.5, 30))
        var reused = DSUDataPacket(controller: .empty(slot: 1), motion: first, serverID: 9)
        reused.stamp(packetNumber: 7)
        let storage = reused.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        reused.update(controller: controller, motion: second)
        reused.stamp(packetNumber: 41)
        var fresh = DSUDataPacket(controller: controller, motion: second, serverID: 9)
        fresh.stamp(packetNumber: 41)
        #expect(reused.bytes == fresh.bytes)
        #expect(reused.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == storage,
                "a sample's packet is written over the last one's, not allocated")
    }

    @Test func macIsStableNonZeroUnicastAndPerDevice() {
        let machine = "0123456789abcdef0123456789abcdef"
        let mac = DSUMAC(machineID: machine, deviceKey: "bmi260 i2c")
        #expect(mac == DSUMAC(machineID: machine, deviceKey: "bmi260 i2c"))
        #expect(mac != .zero)
        #expect(mac.bytes.0 & 0x01 == 0, "unicast")
        #expect(mac.bytes.0 & 0x02 == 0x02, "locally administered")
        #expect(mac != DSUMAC(machineID: machine, deviceKey: "054c:09cc 1a:2b"))
        #expect(mac != DSUMAC(machineID: "fedcba9876543210fedcba9876543210", deviceKey: "bmi260 i2c"))
        #expect(mac.description.count == 17)
    }

    @Test(arguments: [(5.0, false, false, DSUController.Battery.dying), (20, false, false, .low), (45, false, false, .medium),
                      (75, false, false, .high), (95, false, false, .full), (50, true, false, .charging),
                      (100, true, true, .charged)])
    func batteryGrades(percentage: Double, charging: Bool, full: Bool, expected: DSUController.Battery) {
        #expect(DSUController.Battery(percentage: percentage, charging: charging, fullyCharged: full) == expected)
    }
}
