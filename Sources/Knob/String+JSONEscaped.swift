extension String {
    /// The string escaped for the inside of a JSON string literal: `"` and
    /// `\` backslashed, control characters as `\u00XX` (lowercase hex), the
    /// rest as is (JSON text is UTF-8). Used by every JSON line tiltd writes
    /// from text it did not choose (D-Bus names, the page's fields, errors).
    public var jsonEscaped: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
