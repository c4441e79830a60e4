import Foundation

/// The page's files (Sources/Web/Page: HTML, CSS and JavaScript as a web
/// developer edits them), built into the binary (`.embedInCode` in
/// Package.swift: an installed tiltd needs nothing beside it), with each
/// `{{name}}` in them filled in. A file's final newline is not part of it.
enum WebPageFile {
    /// `file` with each `{{name}}` replaced by `values[name]`, once (values
    /// are not searched). A name without a value is a mistake in the files,
    /// which the page's golden tests catch.
    static func fill(_ file: [UInt8], _ values: [String: String] = [:]) -> String {
        var rest = Substring(String(decoding: file.last == 10 ? file.dropLast() : file[...], as: UTF8.self))
        var text = ""
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard let value = values[name] else { preconditionFailure("Sources/Web/Page: nothing fills {{\(name)}}") }
            text += rest[..<open.lowerBound]
            text += value
            rest = rest[close.upperBound...]
        }
        return text + rest
    }
}
