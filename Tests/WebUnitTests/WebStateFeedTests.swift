import Knob
import Motion
import Testing
@testable import Web

/// The page's one mailbox: the newest state and the newest value of each
/// channel, as a stream's reader takes them.
@Suite(.timeLimit(.minutes(2))) struct WebStateFeedTests {
    static func state(_ seconds: Int64) -> KnobState {
        KnobState(tilt: TiltState(timestampNanoseconds: seconds * 1_000_000_000, roll: 0.25, pitch: -0.1,
                                  orientation: .normal))
    }

    @Test func aReaderTakesTheNewestStateAndEachChangedChannelOldestFirst() async throws {
        let feed = WebStateFeed()
        var reader = feed.reader()
        feed.post("ring", json: "1")
        let first = try #require(await reader.next())
        #expect(first.messages.map(\.json) == ["1"] && first.state == nil, "a channel before any state")
        feed.emit(Self.state(1))
        feed.post("volume", json: "0.5")
        feed.post("ring", json: "2")
        feed.emit(Self.state(2))
        feed.post("volume", json: "0.25")
        let second = try #require(await reader.next())
        #expect(second.messages.map(\.channel) == ["ring", "volume"], "one message a channel, oldest change first")
        #expect(second.messages.map(\.json) == ["2", "0.25"], "each channel's newest value")
        #expect(second.state?.state == Self.state(2), "the newest state only")
        #expect(second.state?.sequence == 2 && feed.current?.sequence == 2, "channels do not count as states")
        feed.post("ring", json: "3")
        let third = try #require(await reader.next())
        #expect(third.messages.map(\.json) == ["3"] && third.state == nil, "an unchanged state is not sent again")
    }

    @Test func aWakeWithNothingNewReturnsNilAndAWakeIsNotMissedWhileTheReaderIsBusy() async {
        let feed = WebStateFeed()
        var reader = feed.reader()
        feed.wakeAll()  // before the reader waits: it must still see it
        #expect(await reader.next() == nil)
        feed.emit(Self.state(1))
        #expect(await reader.next()?.state?.sequence == 1)
    }
}
