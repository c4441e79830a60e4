import Foundation

/// Headless Chromium for the page tests (SPEC §10): Debian's `chromium`,
/// run as root with `--no-sandbox`, every call under a wall-clock `timeout`
/// because an open event stream can keep the page from settling.
enum WebBrowser {
    /// The browser binary, or nil when it is not installed.
    static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// One headless Chromium at a time in the test process. Several at once
    /// (the page, slider, controls and serve suites run in parallel) made
    /// every start exit with status 5 within half a second, in two of three
    /// full runs under load, with nothing in stderr to say why; one at a
    /// time they start. `WebDevTools` holds it for its browser's lifetime.
    static let oneAtATime = DispatchSemaphore(value: 1)

    /// Runs chromium headless on `url` with `arguments` (e.g. `--dump-dom`),
    /// killed after `seconds`, in a window of `window` CSS pixels, once.
    ///
    /// An answer without `marker` (an element every good load has; nil: any
    /// answer will do, as for a screenshot) is an error that carries
    /// Chromium's exit status, the start of its output and the end of its
    /// stderr. Such answers (an empty document, exit 5 at start) come from
    /// the harness, not the page: a soft open-file limit of 1,024 starves
    /// the in-process servers (TestFileLimit raises it) and several
    /// Chromiums starting at once starve each other (`oneAtATime`).
    ///
    /// - Returns: standard output (the DOM for `--dump-dom`).
    static func run(_ arguments: [String], url: String, seconds: Int = 90, profile: String,
                    window: String = "800,600", marker: String? = "<html") throws -> String {
        let answer = try runOnce(arguments, url: url, seconds: seconds, profile: profile, window: window)
        guard let marker, !answer.out.contains(marker) else { return answer.out }
        throw Failure(description: "chromium answered \(url) without \(marker): exit \(answer.status), "
                      + "\(answer.out.utf8.count) bytes out (\(answer.out.prefix(200))), stderr: \(answer.err.suffix(600))")
    }

    private static func runOnce(_ arguments: [String], url: String, seconds: Int, profile: String,
                                window: String) throws -> (out: String, err: String, status: Int32) {
        guard let executable else { throw Failure(description: "chromium is not installed (scripts/setup.sh test installs it)") }
        oneAtATime.wait()
        defer { oneAtATime.signal() }
        // Output goes to files: no pipe can fill up while chromium runs.
        let outPath = profile + "-stdout", errPath = profile + "-stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", String(seconds), executable, "--headless", "--no-sandbox", "--disable-gpu",
                             "--no-first-run", "--disable-extensions", "--disable-background-networking",
                             "--user-data-dir=\(profile)", "--window-size=\(window)"] + arguments + [url]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        process.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        if process.terminationStatus == 124 {
            throw Failure(description: "chromium did not finish within \(seconds) s: \(err.suffix(2000))")
        }
        return (out, err, process.terminationStatus)
    }

    /// The attributes of the element with `id` in a dumped DOM, as name → value.
    static func attributes(ofElementWithID id: String, in dom: String) -> [String: String] {
        guard let idRange = dom.range(of: "id=\"\(id)\"") else { return [:] }
        let tagStart = dom[..<idRange.lowerBound].lastIndex(of: "<") ?? idRange.lowerBound
        return attributes(ofTagAt: tagStart, in: dom)
    }

    /// The attributes of the first `<tag …>` in a dumped DOM.
    static func attributes(ofTag tag: String, in dom: String) -> [String: String] {
        guard let start = dom.range(of: "<\(tag)")?.lowerBound else { return [:] }
        return attributes(ofTagAt: start, in: dom)
    }

    private static func attributes(ofTagAt tagStart: String.Index, in dom: String) -> [String: String] {
        guard let tagEnd = dom[tagStart...].firstIndex(of: ">") else { return [:] }
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
