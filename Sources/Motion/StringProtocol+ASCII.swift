// Small text helpers for parsing and one-line messages, Foundation-free.

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, CR and LF.
    package func trimmingASCIIWhitespace() -> String {
        // "\r\n" is one Character (a grapheme cluster), so it is listed too.
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}

extension String {
    /// The text with line breaks shown as `\n` and every other control
    /// character escaped (see `escapingControls`), for one-line messages.
    package func replacingNewlines() -> String {
        escapingControls()
    }

    /// The text with control characters made visible, so a message that
    /// echoes a file's content cannot move the cursor, ring the bell or
    /// change the terminal's colours: `\n`, `\r`, `\t`, and `\xHH` for
    /// the other C0 controls and DEL, `\u{HH}` for the C1 controls.
    public func escapingControls() -> String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case _ where Self.isControl(scalar):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
