import Controls
import Knob

extension WebRingRecorder {
    /// The ring as the page's `ring` channel sends it (docs/streaming.md):
    ///
    ///     {"revision":3,"generation":1,"duration":45,"phase":"holding","heldFor":1.25,
    ///      "segments":[{"length":0.1,"colour":"#8a3fd0"},…],"download":"ring-…trace","message":"…"}
    ///
    /// `phase` is idle, holding, complete (the limit filled the ring) or
    /// finished (ended early); `segments` are oldest first with their
    /// lengths at the time of the change; while held, the page grows the
    /// newest from `heldFor` seconds on (linearly, as the model), so the
    /// field changes only when something happens, not with every state.
    static func json(_ shared: Shared, nowSeconds: Double) -> String {
        var ring = shared.ring
        ring.advance(toSeconds: nowSeconds)
        let phase: String
        var heldFor = 0.0
        if case let .holding(startSeconds, _) = ring.phase {
            phase = "holding"
            heldFor = nowSeconds - startSeconds
        } else if ring.isComplete {
            phase = "complete"
        } else {
            phase = shared.closed ? "finished" : "idle"
        }
        let segments = ring.segments.map { segment in
            #"{"length":\#(JSONText.number(segment.length, decimals: 6)),"colour":"\#(hex(segment.colour))"}"#
        }
        let download = shared.offered.last.map { #""/recordings/\#($0)""# } ?? "null"
        return #"{"revision":\#(shared.revision),"generation":\#(shared.generation),"#
            + #""duration":\#(JSONText.number(ring.durationSeconds, decimals: 6)),"phase":"\#(phase)","#
            + #""heldFor":\#(JSONText.number(heldFor, decimals: 6)),"segments":[\#(segments.joined(separator: ","))],"#
            + #""download":\#(download),"message":"\#(shared.message.jsonEscaped)"}"#
    }

    /// The ring's JSON as it is now.
    func json() -> String {
        let now = nowSeconds
        return shared.withLock { Self.json($0, nowSeconds: now) }
    }

    /// `#rrggbb` of a colour's 0…1 components.
    static func hex(_ colour: RGBAColour) -> String {
        "#" + WebLightControl.lightColour(colour).hex.prefix(6).lowercased()
    }
}

/// Locale-free numbers for the page's JSON fields.
enum JSONText {
    static func number(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        JSONNumber.append(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
