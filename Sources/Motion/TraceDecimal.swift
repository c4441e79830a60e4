/// Fast, exact, locale-free parsing of the decimal fields of traces and CSVs.
///
/// Foundation's Scanner, `String.components` and one `Double(String)` per
/// field cost far too much for a million-line file, and `strtod` depends on
/// the C locale. These parse bytes in place. A decimal with at most 19
/// significant digits whose mantissa fits in 2⁵³ and whose power of ten is
/// within ±22 is converted with one exact multiplication or division
/// (Clinger's fast path: both operands are exact doubles, so the result is
/// correctly rounded); anything else goes to Swift's `Double(String)`, which
/// is correctly rounded too. Either way the result equals `Double(String)`.
@usableFromInline
enum TraceDecimal {
    @usableFromInline static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    static func digit(_ byte: UInt8) -> UInt64? {
        let value = byte &- 48
        return value < 10 ? UInt64(value) : nil
    }

    /// Parses a finite decimal such as `-12.5`, `3`, `.5`, `1e-3`; nil for
    /// anything else (including `nan`, `inf`, hex, empty).
    static func double(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") {
            i += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        var truncated = false
        while i < end, let d = digit(bytes[i]) {
            sawDigit = true
            if significant < 19 {
                mantissa = mantissa &* 10 &+ d
                if mantissa != 0 { significant += 1 }
            } else {
                exponent += 1
                if d != 0 { truncated = true }
            }
            i += 1
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, let d = digit(bytes[i]) {
                sawDigit = true
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ d
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                } else if d != 0 {
                    truncated = true
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var value = 0
            var sawExponentDigit = false
            while i < end, let d = digit(bytes[i]) {
                sawExponentDigit = true
                if value < 100_000 { value = value * 10 + Int(d) }
                i += 1
            }
            guard sawExponentDigit else { return nil }
            exponent += exponentNegative ? -value : value
        }
        guard i == end else { return nil }
        if !truncated, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
            return negative ? -value : value
        }
        // Rare: long mantissas or huge exponents. Swift's parser is exact and locale-free.
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Parses a decimal integer such as `-1843000000`, the whole Int64
    /// range included (`-9223372036854775808`); nil on overflow or junk.
    static func int64(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        var i = start
        guard i < end else { return nil }
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative || bytes[i] == UInt8(ascii: "+") { i += 1 }
        guard i < end else { return nil }
        // Accumulated with the final sign, so Int64.min (whose magnitude is
        // not an Int64) parses too.
        var value: Int64 = 0
        while i < end {
            guard let d = digit(bytes[i]) else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times10.subtractingReportingOverflow(Int64(d))
                                     : times10.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            value = sum
            i += 1
        }
        return value
    }

    /// Parses seconds such as `12.345678901` into exact nanoseconds (digits
    /// beyond the ninth decimal round half up); exponents go through Double.
    static func nanoseconds(seconds bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        var i = start
        guard i < end else { return nil }
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative || bytes[i] == UInt8(ascii: "+") { i += 1 }
        var whole: Int64 = 0
        var sawDigit = false
        while i < end, let d = digit(bytes[i]) {
            sawDigit = true
            guard whole < 9_000_000_000 else { return nil }
            whole = whole * 10 + Int64(d)
            i += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, let d = digit(bytes[i]) {
                sawDigit = true
                if fractionDigits < 9 {
                    fraction = fraction * 10 + Int64(d)
                    fractionDigits += 1
                } else if fractionDigits == 9 {
                    if d >= 5 { fraction += 1 }
                    fractionDigits += 1
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end {
            // An exponent or junk: let the double parser decide.
            guard let value = double(bytes, start, end), abs(value) < 9e9 else { return nil }
            return Int64((value * 1e9).rounded())
        }
        var scaledFraction = fraction
        for _ in min(fractionDigits, 9)..<9 { scaledFraction *= 10 }
        let total = whole * 1_000_000_000 + scaledFraction
        return negative ? -total : total
    }
}
