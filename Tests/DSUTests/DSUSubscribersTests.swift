@testable import DSU
import Testing

@Suite struct DSUSubscribersTests {
    let slot0 = DSUController(slot: 0, state: .connected, model: .fullGyro, mac: DSUMAC(2, 0, 0, 0, 0, 1))

    func recipients(_ table: inout DSUSubscribers<String>, at seconds: Double) -> [String: UInt32] {
        var sent: [String: UInt32] = [:]
        table.forEachRecipient(of: slot0, at: .seconds(seconds)) { sent[$0] = $1 }
        return sent
    }

    @Test func eachClientHasItsOwnCounter() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "a", selection: .all, at: .seconds(0))
        #expect(recipients(&table, at: 0.1) == ["a": 0])
        #expect(recipients(&table, at: 0.2) == ["a": 1])
        table.request(from: "b", selection: .all, at: .seconds(0.25))
        #expect(recipients(&table, at: 0.3) == ["a": 2, "b": 0])
        table.request(from: "a", selection: .all, at: .seconds(0.35))  // a re-request keeps the counter
        #expect(recipients(&table, at: 0.4) == ["a": 3, "b": 1])
    }

    @Test func aClientIsDroppedFiveSecondsAfterItsLastRequest() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "a", selection: .all, at: .seconds(0))
        table.request(from: "b", selection: .all, at: .seconds(3))
        #expect(recipients(&table, at: 4.999).keys.sorted() == ["a", "b"])
        #expect(recipients(&table, at: 5.0).keys.sorted() == ["b"])
        #expect(recipients(&table, at: 8.0).isEmpty)
        #expect(table.count == 0)
    }

    @Test func aRenewalMovesTheClientsExpiryAndNoOneElses() {
        var table = DSUSubscribers<String>(capacity: 4)
        table.request(from: "a", selection: .all, at: .seconds(0))
        table.request(from: "b", selection: .all, at: .seconds(1))
        table.request(from: "a", selection: .all, at: .seconds(4))  // a now lasts until 9 s, b until 6 s
        let droppedAtFiveAndAHalf = table.expire(at: .seconds(5.5))
        #expect(!droppedAtFiveAndAHalf)  // a's first expiry (5 s) no longer counts
        #expect(recipients(&table, at: 5.9).keys.sorted() == ["a", "b"])
        let droppedAtSix = table.expire(at: .seconds(6))
        #expect(droppedAtSix)
        #expect(recipients(&table, at: 8.9).keys.sorted() == ["a"])
        #expect(recipients(&table, at: 9).isEmpty)
    }

    @Test func theTableIsCappedAndExpiredClientsMakeRoom() {
        var table = DSUSubscribers<String>(capacity: 2)
        let admitted = [
            table.request(from: "a", selection: .all, at: .seconds(0)),
            table.request(from: "b", selection: .all, at: .seconds(1)),
            table.request(from: "c", selection: .all, at: .seconds(2)),
            table.request(from: "a", selection: .all, at: .seconds(2)),  // a known client renews when full
            table.request(from: "c", selection: .all, at: .seconds(6.5)),  // b expired at 6 s
        ]
        #expect(admitted == [true, true, false, true, true])
        #expect(recipients(&table, at: 6.6).keys.sorted() == ["a", "c"])
    }

    @Test func selectionsBySlotAndMAC() {
        var table = DSUSubscribers<String>(capacity: 8)
        table.request(from: "slot0", selection: DSUSelection(flags: 1, slot: 0, mac: .zero), at: .seconds(0))
        table.request(from: "slot1", selection: DSUSelection(flags: 1, slot: 1, mac: .zero), at: .seconds(0))
        table.request(from: "mac", selection: DSUSelection(flags: 2, slot: 9, mac: slot0.mac), at: .seconds(0))
        table.request(from: "othermac", selection: DSUSelection(flags: 2, slot: 0, mac: DSUMAC(2, 9, 9, 9, 9, 9)),
                      at: .seconds(0))
        #expect(recipients(&table, at: 0.1).keys.sorted() == ["mac", "slot0"])
    }
}
