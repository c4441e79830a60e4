import Motion
import Testing
@testable import Web
import Wording

/// Input messages are parsed strictly and limited per connection.
@Suite(.timeLimit(.minutes(2))) struct WebInputMessageTests {
    @Test func aControlAndANumberParse() throws {
        #expect(try WebInputMessage.parse(#"{"control":"volume","value":0.42}"#) == WebInputMessage(control: "volume", value: 0.42))
        #expect(try WebInputMessage.parse(#" {"value":1,"control":"red"} "#) == WebInputMessage(control: "red", value: 1))
    }

    @Test(arguments: [
        ("volume=0.4", "not JSON"),
        ("[1,2]", "not a JSON object"),
        (#"{"control":"volume"}"#, #"no "value""#),
        (#"{"value":0.5}"#, #"no "control""#),
        (#"{"control":"volume","value":"0.5"}"#, #""value" has the wrong type"#),
        (#"{"control":"volume","value":true}"#, #""value" has the wrong type"#),
        (#"{"control":"volume","value":null}"#, #""value" has the wrong type"#),
        (#"{"control":7,"value":0.5}"#, #""control" has the wrong type"#),
        (#"{"control":"","value":0.5}"#, #""control" must be a control's name"#),
        (#"{"control":"volume","value":0.5,"extra":1}"#, #"unknown key "extra""#),
    ])
    func malformedMessagesAreRefusedSayingWhy(text: String, reason: String) {
        #expect(throws: WebInputRefusal.malformed(reason)) { try WebInputMessage.parse(text) }
    }

    @Test func aLongControlNameIsRefused() {
        let name = String(repeating: "x", count: WebInputMessage.maximumControlNameBytes + 1)
        #expect(throws: WebInputRefusal.malformed(#""control" must be a control's name"#)) {
            try WebInputMessage.parse(#"{"control":"\#(name)","value":1}"#)
        }
    }

    @Test func theBucketAllowsABurstThenTheRate() {
        let limit = WebInputRateLimit(perSecond: 10, burst: 3)
        // Which of a run of takes at each time succeed.
        func takes(_ times: [Double]) -> [Bool] { times.map { limit.take(atSeconds: $0) } }
        #expect(takes([0, 0, 0, 0]) == [true, true, true, false])
        // 0.05 s refills half a token, 0.1 s one.
        #expect(takes([0.05, 0.1, 0.1]) == [false, true, false])
        // A long pause refills only up to the burst.
        #expect(takes([100, 100, 100, 100]) == [true, true, true, false])
        // A clock that steps back adds nothing.
        #expect(takes([50]) == [false])
    }

    @Test func controlsRefuseWhatIsNotEnabledOrOutOfRange() async throws {
        let none = WebInputControls()
        await #expect(throws: WebInputRefusal.disabled(control: "volume", known: [])) {
            try await none.apply(WebInputMessage(control: "volume", value: 0.5))
        }
        var some = WebInputControls()
        some.enable("volume", range: 0...1) { _ in }
        some.enable("balance", range: -1...1) { _ in throw WebInputRefusal.binary }
        #expect(some.enabledNames == ["balance", "volume"])
        await #expect(throws: WebInputRefusal.disabled(control: "red", known: ["balance", "volume"])) {
            try await some.apply(WebInputMessage(control: "red", value: 0.5))
        }
        await #expect(throws: WebInputRefusal.outOfRange(control: "volume", value: 1.5, range: 0...1)) {
            try await some.apply(WebInputMessage(control: "volume", value: 1.5))
        }
        await #expect(throws: WebInputRefusal.failed(control: "balance", reason: WebInputRefusal.binary.description)) {
            try await some.apply(WebInputMessage(control: "balance", value: 0))
        }
        try await some.apply(WebInputMessage(control: "volume", value: 1))
    }

    @Test func refusalsReadAsOneLineOfJSON() {
        let message = WebInputSession.errorMessage(.disabled(control: "vol\"ume", known: []))
        #expect(message.hasPrefix(#"{"error":"input refused: \"vol\"ume\" is display-only here"#))
        #expect(message.contains("e.g. \(Setting.controlVolume))"))
        #expect(!message.contains("\n"))
    }
}
