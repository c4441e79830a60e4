extension ChannelLevels {
    /// Appends this record as one JSON Lines line, newline included:
    /// `{"t":1.234567,"left":0.8123,"right":0.0}`.
    ///
    /// Numbers are written without locale: `t` with 6 decimals, levels with
    /// 4, trailing zeros dropped (as the knob states are written).
    public func appendJSONLine(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"t":"#.utf8)
        ChannelLevels.appendFixed(seconds, decimals: 6, to: &out)
        out.append(contentsOf: #","left":"#.utf8)
        ChannelLevels.appendFixed(left, decimals: 4, to: &out)
        out.append(contentsOf: #","right":"#.utf8)
        ChannelLevels.appendFixed(right, decimals: 4, to: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    /// This record as one JSON Lines line, newline included.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `value` rounded to `decimals` places in plain decimal notation
    /// (JSON has no NaN or infinity: those are written as 0).
    static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        // Beyond ±9e12 the scaled value would not fit; no level or time gets there.
        guard value.isFinite, abs(value) < 9e12 else { out.append(UInt8(ascii: "0")); return }
        var scaled = Int64((value * Double(scale)).rounded())
        if scaled < 0 { out.append(UInt8(ascii: "-")); scaled = -scaled }
        out.append(contentsOf: String(scaled / scale).utf8)
        var fraction = scaled % scale
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - text.utf8.count))
        out.append(contentsOf: text.utf8)
    }
}
