import Foundation

/// One input message a page sends on `/ws`: `{"control":"NAME","value":NUMBER}`,
/// e.g. `{"control":"volume","value":0.42}` when the slider is dragged.
///
/// Parsed strictly (a JSON object with a string `control` and a finite
/// number `value`, nothing else) so that a message that
/// does not say what it wants is refused rather than guessed at.
struct WebInputMessage: Sendable, Equatable {
    /// Which control the value is for (a name registered in `WebInputControls`).
    var control: String
    /// The value the user chose, in the control's own units.
    var value: Double

    /// Longest control name accepted; names are short words such as `volume`.
    static let maximumControlNameBytes = 64

    /// Parses one text message.
    ///
    /// - Throws: `WebInputRefusal.malformed` saying what is wrong.
    static func parse(_ text: String) throws(WebInputRefusal) -> WebInputMessage {
        do {
            return try JSONDecoder().decode(WebInputMessage.self, from: Data(text.utf8))
        } catch let refusal as WebInputRefusal {
            throw refusal
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw .malformed("not JSON")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw .malformed("not a JSON object")
        } catch DecodingError.keyNotFound(let key, _) {
            throw .malformed("no \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw .malformed("\"\(context.codingPath.first?.stringValue ?? "?")\" has the wrong type")
        } catch {
            throw .malformed("not a JSON object with \"control\" and \"value\"")
        }
    }
}

extension WebInputMessage: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static let control = Key(stringValue: "control"), value = Key(stringValue: "value")
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        if let unknown = fields.allKeys.map(\.stringValue).filter({ $0 != "control" && $0 != "value" }).sorted().first {
            throw WebInputRefusal.malformed("unknown key \"\(unknown)\"")
        }
        let control = try fields.decode(String.self, forKey: .control)
        guard !control.isEmpty, control.utf8.count <= Self.maximumControlNameBytes else {
            throw WebInputRefusal.malformed("\"control\" must be a control's name")
        }
        // JSONDecoder refuses booleans and strings for a Double.
        let value = try fields.decode(Double.self, forKey: .value)
        guard value.isFinite else { throw WebInputRefusal.malformed("\"value\" must be a finite number") }
        self.init(control: control, value: value)
    }
}
