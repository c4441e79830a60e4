import Devices
import Foundation
import Knob
import Motion
import SamplePath
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

    /// The device channel: open with its name and whether a gyroscope is
    /// fused; stopped, with why, and then no state is left to show.
    @Test func theDeviceChannelSaysWhenTheDeviceOpensAndStopsAndAStoppedDeviceLeavesNoState() async throws {
        let feed = WebStateFeed()
        var reader = feed.reader()
        let info = AccelerometerInfo.named(id: "iio:device0", name: "bmi160")
        // Through the hub, as a run reports them.
        let hub = StateHub([feed])
        hub.captureStatus(CaptureStatus(info: info, mode: .buffer, rateHertz: 200, clock: "monotonic"), fusingGyroscope: true)
        feed.emit(Self.state(1))
        let opened = try #require(await reader.next())
        #expect(opened.messages.map(\.channel) == [WebStateFeed.deviceChannel])
        #expect(opened.messages.map(\.json) == [#"{"open":true,"device":"iio:device0 (bmi160)","gyroscope":true}"#])
        #expect(opened.state?.sequence == 1)

        hub.deviceStopped(.lost(#"read failed: "No such device" (errno 19)"#))
        let lost = try #require(await reader.next())
        let json = try #require(lost.messages.first?.json)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect(decoded["open"] as? Bool == false && decoded["stopped"] as? String == "lost")
        #expect(decoded["message"] as? String == #"read failed: "No such device" (errno 19)"#)
        #expect(lost.state == nil && feed.current == nil, "a stopped device's last state is still served")

        hub.deviceStopped(.released)
        #expect(try #require(await reader.next()).messages.map(\.json) == [#"{"open":false,"stopped":"released"}"#])
        // It opens again: the next state is served as before.
        feed.emit(Self.state(2))
        #expect(try #require(await reader.next()).state?.state == Self.state(2))
        #expect(feed.current?.state == Self.state(2))
    }
}
