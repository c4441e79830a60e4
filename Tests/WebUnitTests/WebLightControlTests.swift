import Foundation
import Knob
import Motion
import Testing
@testable import Web

/// The light's colour as the page's sliders set it, and the fields the
/// page's streams add to each state.
@Suite(.timeLimit(.minutes(2))) struct WebLightControlTests {
    static let state = KnobState(tilt: TiltState(timestampNanoseconds: 1_500_000_000, roll: 0.25, pitch: -0.1,
                                                 orientation: .normal))

    @Test func theStateRecordKeepsItsFieldsAndGainsTheLight() throws {
        let feed = WebStateFeed()
        _ = WebLightControl(initial: LightColour(hex: "FFC04080")!, interactive: false, feed: feed)
        feed.emit(Self.state)
        let line = String(decoding: try #require(feed.current).record, as: UTF8.self)
        let old = Self.state.jsonLine
        #expect(line.hasPrefix(String(old.dropLast(2))), "the state's own fields come first, unchanged: \(line)")
        #expect(line.hasSuffix(#","light":"FFC04080"}"#), "\(line)")
    }

    @Test func settingAComponentReportsTheColourOnceToEveryStream() async throws {
        let feed = WebStateFeed()
        let light = WebLightControl(initial: .white, interactive: true, feed: feed)
        feed.emit(Self.state)
        let before = try #require(feed.current).sequence
        light.set(.green, to: 0)
        // One new entry: the same state again, with the new colour.
        let entry = try #require(feed.current)
        #expect(entry.sequence == before + 1 && entry.state == Self.state)
        #expect(String(decoding: entry.fields, as: UTF8.self) == #","light":"FF00FFFF""#)
        light.set(.blue, to: 7)  // clamped to 1
        light.set(.alpha, to: 0.5)
        #expect(light.colour == LightColour(red: 255, green: 0, blue: 255, alpha: 128))
    }

    @Test func fieldsComeOutSortedWhateverOrderTheyWereSetIn() {
        var fields = WebStateFields()
        fields.set("ring", json: "{}")
        fields.set("light", json: #""FFFFFFFF""#)
        #expect(String(decoding: fields.json, as: UTF8.self) == #","light":"FFFFFFFF","ring":{}"#)
        fields.set("ring", json: nil)
        #expect(String(decoding: fields.json, as: UTF8.self) == #","light":"FFFFFFFF""#)
    }
}
