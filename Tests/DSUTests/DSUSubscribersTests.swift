@testable import DSU
import Testing

@Suite(.timeLimit(.minutes(1))) struct DSUSubscribersTests {
    let slot0 = DSUController(slot: 0, state: .connected, model: .fullGyro, mac: DSUMAC(2, 0, 0, 0, 0, 1))

    static func slot(_ slot: UInt8) -> DSUSelection { DSUSelection(flags: 1, slot: slot, mac: .zero) }

    /// Who a sample at `seconds` goes to, the event loop's expiry having run just before.
    func recipients(_ table: inout DSUSubscribers<String>, at seconds: Double) -> [String: UInt32] {
        table.expire(at: .seconds(seconds))
        return recipientsBeforeExpiry(&table)
    }

    /// Who the next sample goes to, as the table stands.
    func recipientsBeforeExpiry(_ table: inout DSUSubscribers<String>) -> [String: UInt32] {
        var sent: [String: UInt32] = [:]
        table.forEachRecipient(of: slot0) { address, number in
            sent[address] = number
            return .sent
        }
        return sent
    }

    @Test func packetsAreNumberedPerControllerAndTheCounterGoesOnForANewcomer() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "a", selection: .all, at: .seconds(0))
        #expect(recipients(&table, at: 0.1) == ["a": 0])
        #expect(recipients(&table, at: 0.2) == ["a": 1])
        table.request(from: "b", selection: .all, at: .seconds(0.25))
        #expect(recipients(&table, at: 0.3) == ["a": 2, "b": 2])
        table.request(from: "a", selection: .all, at: .seconds(0.35))
        #expect(recipients(&table, at: 0.4) == ["a": 3, "b": 3])
    }

    @Test func aClientThatLapsesAndSubscribesAgainSeesItsCounterGoOn() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "citra", selection: .all, at: .seconds(0))
        #expect(recipients(&table, at: 1) == ["citra": 0])
        #expect(recipients(&table, at: 2) == ["citra": 1])
        table.expire(at: .seconds(6))
        #expect(table.count == 0)
        table.request(from: "citra", selection: .all, at: .seconds(6.5))
        #expect(recipients(&table, at: 7) == ["citra": 2])
    }

    /// A selection lapses only when the event loop's expiry runs, after it
    /// has read the requests waiting: a renewal that queued while the server
    /// was held up still counts.
    @Test func nothingLapsesUntilExpireRuns() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "a", selection: .all, at: .seconds(0))
        table.request(from: "b", selection: .all, at: .seconds(3))
        #expect(recipientsBeforeExpiry(&table).keys.sorted() == ["a", "b"])  // at 5.5 s, say: not expired yet
        table.request(from: "a", selection: .all, at: .seconds(5.2))  // its renewal, read late
        let droppedAtFiveAndAHalf = table.expire(at: .seconds(5.5))
        #expect(!droppedAtFiveAndAHalf)
        #expect(recipientsBeforeExpiry(&table).keys.sorted() == ["a", "b"])
        let droppedAtEight = table.expire(at: .seconds(8))
        #expect(droppedAtEight)
        #expect(table.count == 1)
        #expect(recipientsBeforeExpiry(&table).keys.sorted() == ["a"])
    }

    @Test func aRenewalMovesTheClientsExpiryAndNoOneElses() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "a", selection: .all, at: .seconds(0))
        table.request(from: "b", selection: .all, at: .seconds(1))
        table.request(from: "a", selection: .all, at: .seconds(4))  // a now lasts until 9 s, b until 6 s
        let droppedAtFiveAndAHalf = table.expire(at: .seconds(5.5))
        #expect(!droppedAtFiveAndAHalf)
        #expect(recipients(&table, at: 5.9).keys.sorted() == ["a", "b"])
        let droppedAtSix = table.expire(at: .seconds(6))
        #expect(droppedAtSix)
        #expect(recipients(&table, at: 8.9).keys.sorted() == ["a"])
        #expect(recipients(&table, at: 9).isEmpty)
        table.expire(at: .seconds(9))
        #expect(table.count == 0)
    }

    /// Cemu on one socket: slot 0, then, refreshing its list, slots 0–3 in
    /// turn. Each slot's selection stands on its own.
    @Test func aRequestForAnotherSlotNeverCancelsSlotZero() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "cemu", selection: Self.slot(0), at: .seconds(0))
        #expect(recipients(&table, at: 0.1) == ["cemu": 0])
        for slot: UInt8 in [0, 1, 2, 3] { table.request(from: "cemu", selection: Self.slot(slot), at: .seconds(0.2)) }
        table.request(from: "cemu", selection: Self.slot(3), at: .seconds(0.3))
        #expect(recipients(&table, at: 0.4) == ["cemu": 1])
        // Only slot 3 is asked for from now on: slot 0's selection lapses 5 s
        // after its own last request, though the client stays.
        table.request(from: "cemu", selection: Self.slot(3), at: .seconds(4))
        #expect(recipients(&table, at: 5.1) == ["cemu": 2])
        #expect(recipients(&table, at: 5.2).isEmpty)
        #expect(table.count == 1)
    }

    @Test func selectionsBySlotAndMAC() {
        var table = DSUSubscribers<String>(capacity: 8)
        table.request(from: "slot0", selection: Self.slot(0), at: .seconds(0))
        table.request(from: "slot1", selection: Self.slot(1), at: .seconds(0))
        table.request(from: "mac", selection: DSUSelection(flags: 2, slot: 9, mac: slot0.mac), at: .seconds(0))
        table.request(from: "othermac", selection: DSUSelection(flags: 2, slot: 0, mac: DSUMAC(2, 9, 9, 9, 9, 9)),
                      at: .seconds(0))
        table.request(from: "slot9", selection: Self.slot(9), at: .seconds(0))
        #expect(recipients(&table, at: 0.1).keys.sorted() == ["mac", "slot0"])
    }

    @Test func aClientHoldsABoundedNumberOfMACs() {
        var table = DSUSubscribers<String>(capacity: 4, maxMACsPerClient: 2)
        table.request(from: "a", selection: DSUSelection(flags: 2, slot: 0, mac: slot0.mac), at: .seconds(0))
        for last: UInt8 in 1...50 {
            table.request(from: "a", selection: DSUSelection(flags: 2, slot: 0, mac: DSUMAC(9, 9, 9, 9, 9, last)),
                          at: .seconds(0.01 * Double(last)))
        }
        #expect(table.subscribers[0].macRequested.count == 2)
        #expect(recipients(&table, at: 1).isEmpty)  // slot 0's MAC yielded to later ones
    }

    @Test func whenFullTheClientThatAskedLeastRecentlyYields() {
        var table = DSUSubscribers<String>(capacity: 2)
        let admitted = [
            table.request(from: "a", selection: .all, at: .seconds(0)),
            table.request(from: "b", selection: .all, at: .seconds(1)),
            table.request(from: "a", selection: .all, at: .seconds(2)),  // a renews: b is now the least recent
            table.request(from: "c", selection: .all, at: .seconds(2.5)),
        ]
        #expect(admitted == [true, true, true, true])
        #expect(table.displaced == 1)
        #expect(recipients(&table, at: 2.6).keys.sorted() == ["a", "c"])
    }

    /// Sixteen squatters renewing every 4 s fill the table; a client that
    /// renews every 3 s (Citra, yuzu) still gets every sample once it is in.
    @Test func squattersThatRenewSlowlyCannotKeepAClientOut() {
        var table = DSUSubscribers<String>(capacity: 16)
        var events: [(time: Double, who: String)] = []
        for squatter in 0..<16 {
            for round in 0..<8 { events.append((Double(round) * 4 + Double(squatter) * 0.25, "squatter\(squatter)")) }
        }
        for round in 0..<10 { events.append((2 + Double(round) * 3, "client")) }
        events.sort { $0.time < $1.time }
        var missed = 0, delivered = 0
        var sampleTime = 2.0
        for event in events {
            while sampleTime < event.time {
                if sampleTime > 2.05 {
                    if recipients(&table, at: sampleTime)["client"] == nil { missed += 1 } else { delivered += 1 }
                }
                sampleTime += 0.01
            }
            table.request(from: event.who, selection: .all, at: .seconds(event.time))
            table.expire(at: .seconds(event.time))
        }
        #expect(delivered > 2_500)
        #expect(missed == 0)
        #expect(table.count == 16)
    }

    @Test func oneHostBeyondThisMachineHoldsABoundedShare() {
        var table = DSUSubscribers<String>(capacity: 16, maxClientsPerHost: 4)
        for port in 0..<10 {
            table.request(from: "192.0.2.7:\(port)", host: "192.0.2.7", selection: .all, at: .seconds(Double(port) * 0.1))
        }
        table.request(from: "198.51.100.1:1", host: "198.51.100.1", selection: .all, at: .seconds(2))
        table.request(from: "127.0.0.1:1", selection: .all, at: .seconds(2))
        #expect(table.subscribers.filter { $0.host == "192.0.2.7" }.map(\.address)
            == ["192.0.2.7:6", "192.0.2.7:7", "192.0.2.7:8", "192.0.2.7:9"])
        #expect(table.count == 6)
    }

    @Test func aClientWhosePacketIsRefusedIsDropped() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "gone", selection: .all, at: .seconds(0))
        table.request(from: "here", selection: .all, at: .seconds(0))
        let dropped = table.forEachRecipient(of: slot0) { address, _ in address == "gone" ? .refused : .sent }
        #expect(dropped)
        #expect(table.subscribers.map(\.address) == ["here"])
        #expect(recipients(&table, at: 0.2) == ["here": 1])
    }

    /// A packet lost on the way out (a full socket) is counted against its
    /// client, which stays subscribed; the count is handed over once, when
    /// the client leaves, and a client that lost nothing leaves no record.
    @Test func droppedPacketsAreCountedPerClientAndReportedOnceWhenItLeaves() {
        var table = DSUSubscribers<String>(capacity: 4, lifetime: .seconds(5))
        table.request(from: "full", selection: .all, at: .seconds(0))
        table.request(from: "fine", selection: .all, at: .seconds(0))
        var numbers: [UInt32] = []
        for sample in 0..<5 {
            let removed = table.forEachRecipient(of: slot0) { address, number in
                if address == "fine" { numbers.append(number) }
                return address == "full" && sample % 2 == 0 ? .dropped : .sent
            }
            #expect(!removed)
        }
        #expect(numbers == [0, 1, 2, 3, 4])
        #expect(table.subscribers.map(\.droppedPackets) == [3, 0])
        #expect(table.departures.isEmpty)
        // Both lapse: only the one that lost packets is reported, once.
        table.expire(at: .seconds(6))
        #expect(table.count == 0)
        let departures = table.takeDepartures()
        #expect(departures.map(\.address) == ["full"] && departures.map(\.droppedPackets) == [3])
        #expect(table.takeDepartures().isEmpty)
    }

    @Test func aDisplacedOrRemovedClientReportsItsDroppedPackets() {
        var table = DSUSubscribers<String>(capacity: 1)
        table.request(from: "old", selection: .all, at: .seconds(0))
        table.forEachRecipient(of: slot0) { _, _ in .dropped }
        table.request(from: "new", selection: .all, at: .seconds(1))
        #expect(table.takeDepartures().map(\.address) == ["old"])
        table.forEachRecipient(of: slot0) { _, _ in .dropped }
        table.forEachRecipient(of: slot0) { _, _ in .dropped }
        table.remove("new")
        let departures = table.takeDepartures()
        #expect(departures.map(\.address) == ["new"] && departures.map(\.droppedPackets) == [2])
    }
}
