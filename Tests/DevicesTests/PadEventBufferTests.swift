@testable import Devices
import Testing

/// Whole events out of reads that end anywhere, as a pty faked by umockdev
/// delivers them (PadEventBuffer says why libevdev's own read loses them).
@Suite(.timeLimit(.minutes(2))) struct PadEventBufferTests {
    /// 24-byte "events" whose bytes say their number: event k is 24 bytes of k.
    static func stream(events: Int) -> [UInt8] {
        (0..<events).flatMap { Array(repeating: UInt8($0), count: 24) }
    }

    /// Reads `stream` in chunks of the given sizes (cycled), taking every
    /// whole event after each read.
    static func replay(_ stream: [UInt8], chunks: [Int]) -> (events: [UInt8], partialSeen: Bool) {
        var buffer = PadEventBuffer(eventSize: 24, capacityEvents: 4)
        var offset = 0, chunk = 0, events: [UInt8] = [], partialSeen = false
        while true {
            let fill = buffer.fill { space in
                guard offset < stream.count else { return nil }
                let count = min(chunks[chunk % chunks.count], space.count, stream.count - offset)
                chunk += 1
                for index in 0..<count { space[index] = stream[offset + index] }
                offset += count
                return count
            }
            if fill == .nothing { break }
            while let event = buffer.next({ bytes -> UInt8 in
                #expect(Set(bytes).count == 1, "an event made of two events' bytes: \(Array(bytes))")
                return bytes[0]
            }) { events.append(event) }
            if buffer.partialBytes > 0 { partialSeen = true }
        }
        return (events, partialSeen)
    }

    @Test(arguments: [[24], [7], [30, 11, 1, 50], [23, 25], [96]])
    func everyEventComesOutWholeAndInOrder(chunks: [Int]) {
        let (events, _) = Self.replay(Self.stream(events: 40), chunks: chunks)
        #expect(events == (0..<40).map { UInt8($0) })
    }

    @Test func aReadEndingInsideAnEventKeepsItsFirstBytes() {
        let (events, partialSeen) = Self.replay(Self.stream(events: 3), chunks: [10, 20, 42])
        #expect(partialSeen)
        #expect(events == [0, 1, 2])
    }

    @Test func endOfFileAndNothingNowAreTold() {
        var buffer = PadEventBuffer(eventSize: 24)
        #expect(buffer.fill { _ in 0 } == .endOfFile)
        #expect(buffer.fill { _ in nil } == .nothing)
        #expect(buffer.next { _ in 0 } == nil)
    }
}
