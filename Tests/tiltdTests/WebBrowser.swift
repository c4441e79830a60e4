import Foundation
import TiltdTestSupport

/// Headless Chromium for the page tests (SPEC §10): Debian's `chromium`,
/// run as root with `--no-sandbox`, every call under a wall-clock `timeout`
/// because an open event stream can keep the page from settling.
enum WebBrowser {
    /// The browser binary, or nil when it is not installed.
    static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Runs chromium headless on `url` with `arguments` (e.g. `--dump-dom`),
    /// killed after `seconds`.
    ///
    /// - Returns: standard output (the DOM for `--dump-dom`).
    static func run(_ arguments: [String], url: String, seconds: Int = 90, profile: String) throws -> String {
        guard let executable else { throw Failure(description: "chromium is not installed (scripts/setup.sh test installs it)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", String(seconds), executable, "--headless", "--no-sandbox", "--disable-gpu",
                             "--no-first-run", "--disable-extensions", "--disable-background-networking",
                             "--user-data-dir=\(profile)", "--window-size=800,600"] + arguments + [url]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let outData = LockedData(), errData = LockedData()
        out.fileHandleForReading.readabilityHandler = { outData.append($0.availableData) }
        err.fileHandleForReading.readabilityHandler = { errData.append($0.availableData) }
        try process.run()
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        outData.append(out.fileHandleForReading.readDataToEndOfFile())
        errData.append(err.fileHandleForReading.readDataToEndOfFile())
        if process.terminationStatus == 124 {
            throw Failure(description: "chromium did not finish within \(seconds) s: \(String(decoding: errData.value.suffix(2000), as: UTF8.self))")
        }
        return String(decoding: outData.value, as: UTF8.self)
    }

    /// The attributes of the element with `id` in a dumped DOM, as name → value.
    static func attributes(ofElementWithID id: String, in dom: String) -> [String: String] {
        guard let idRange = dom.range(of: "id=\"\(id)\"") else { return [:] }
        let tagStart = dom[..<idRange.lowerBound].lastIndex(of: "<") ?? idRange.lowerBound
        guard let tagEnd = dom[idRange.upperBound...].firstIndex(of: ">") else { return [:] }
        let tag = dom[tagStart..<tagEnd]
        var result: [String: String] = [:]
        var rest = tag[...]
        while let eq = rest.range(of: "=\"") {
            let name = rest[..<eq.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" }).last.map(String.init) ?? ""
            let valueStart = eq.upperBound
            guard let close = rest[valueStart...].firstIndex(of: "\"") else { break }
            result[name] = String(rest[valueStart..<close])
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
            rest = rest[rest.index(after: close)...]
        }
        return result
    }
}
