// Small text helpers for parsing and one-line messages, Foundation-free.

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, CR and LF.
    func trimmingASCIIWhitespace() -> String {
        // "\r\n" is one Character (a grapheme cluster), so it is listed too.
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}

extension String {
    /// The text with line breaks shown as `\n`, for one-line messages.
    package func replacingNewlines() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
