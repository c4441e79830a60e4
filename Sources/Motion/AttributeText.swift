/// Locale-independent parsing of IIO sysfs attribute text.
///
/// Attribute files end with a newline (IIO ABI) and hold C-locale numbers
/// ("0.009806"), whatever the user's locale: `strtod` under `LC_ALL=fr_FR`
/// would stop at the '.', so everything here goes through Swift's
/// `Double(String)`/`Int64(String)`, which never consult the locale.
public enum AttributeText {
    /// Parses one decimal number such as a scale or offset.
    ///
    /// - Parameters:
    ///   - text: the file's contents; surrounding spaces and the trailing
    ///     newline are ignored.
    ///   - attribute: the attribute's name or path, quoted in errors.
    /// - Returns: the value (finite).
    /// - Throws: `AttributeTextError` naming the attribute and the text.
    public static func double(_ text: String, attribute: String) throws -> Double {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else {
            throw AttributeTextError(attribute: attribute, text: text, problem: "it is empty")
        }
        guard let value = Double(trimmed), value.isFinite else {
            throw AttributeTextError(attribute: attribute, text: text, problem: "it is not a decimal number")
        }
        return value
    }

    /// Parses one integer such as a raw reading (`in_accel_x_raw`).
    ///
    /// - Parameters:
    ///   - text: the file's contents, trailing newline ignored.
    ///   - attribute: the attribute's name or path, quoted in errors.
    /// - Throws: `AttributeTextError` naming the attribute and the text.
    public static func integer(_ text: String, attribute: String) throws -> Int64 {
        let trimmed = text.trimmingASCIIWhitespace()
        guard let value = Int64(trimmed) else {
            throw AttributeTextError(attribute: attribute, text: text,
                                     problem: trimmed.isEmpty ? "it is empty" : "it is not an integer")
        }
        return value
    }

    /// Parses `sampling_frequency_available`: a space-separated list
    /// ("3 6 12 25") or a range "[min step max]" (IIO ABI).
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - attribute: the attribute's name or path, quoted in errors.
    /// - Throws: `AttributeTextError` when the text is neither form, holds a
    ///   non-number, or describes an empty or backwards range.
    public static func samplingFrequencies(_ text: String, attribute: String) throws -> SamplingFrequencies {
        let trimmed = text.trimmingASCIIWhitespace()
        let isRange = trimmed.hasPrefix("[")
        if isRange != trimmed.hasSuffix("]") {
            throw AttributeTextError(attribute: attribute, text: text, problem: "its brackets do not match")
        }
        let body = isRange ? trimmed.dropFirst().dropLast() : Substring(trimmed)
        var values: [Double] = []
        for word in body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let value = Double(word), value.isFinite, value >= 0 else {
                throw AttributeTextError(attribute: attribute, text: text,
                                         problem: "\"\(word)\" is not a non-negative frequency in Hz")
            }
            values.append(value)
        }
        if isRange {
            guard values.count == 3 else {
                throw AttributeTextError(attribute: attribute, text: text,
                                         problem: "a range needs exactly three values \"[min step max]\"")
            }
            guard values[1] > 0, values[0] <= values[2] else {
                throw AttributeTextError(attribute: attribute, text: text,
                                         problem: "the range needs step > 0 and min ≤ max")
            }
            return .range(minimum: values[0], step: values[1], maximum: values[2])
        }
        guard !values.isEmpty else {
            throw AttributeTextError(attribute: attribute, text: text, problem: "it lists no frequency")
        }
        return .list(values)
    }
}
