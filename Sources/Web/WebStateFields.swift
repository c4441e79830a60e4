import Knob

/// Fields the page's streams add to every state (the light's colour):
/// `/state`, `/events` and `/ws` carry `{…the state…,"light":"FFFFFFFF"}`,
/// the state's own fields first and unchanged (docs/streaming.md). Unlike
/// a channel (`WebStateFeed.post`), a field is part of the state: a viewer
/// never sees a state without the light it was shown in.
///
/// Each value is JSON text made by its owner; the keys come out sorted, so
/// the record does not depend on the order they were set in.
struct WebStateFields: Sendable, Equatable {
    private var values: [String: String] = [:]
    /// `,"key":value` for every field, sorted by key: what goes before the
    /// state record's closing brace.
    private(set) var json: [UInt8] = []

    mutating func set(_ key: String, json value: String?) {
        values[key] = value
        var out: [UInt8] = []
        for key in values.keys.sorted() {
            out.append(contentsOf: ",\"\(key.jsonEscaped)\":".utf8)
            out.append(contentsOf: values[key]!.utf8)
        }
        json = out
    }
}
