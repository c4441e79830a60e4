import Foundation
import Glibc
import TiltdTestSupport

/// Headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands in on descriptor 3, answers out on
/// 4, each a JSON object ended by a NUL byte), so a test can press the
/// page's controls with real input events (`Input.dispatchMouseEvent` runs
/// the page's own pointer handlers), read the page with `Runtime.evaluate`
/// and take screenshots. The pipes are FIFOs the test opens first, so
/// Chromium's shell redirections never block; every wait has a deadline.
final class WebDevTools {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// One page (a tab) with its DevTools session.
    struct Page {
        let session: String
    }

    private let process = Process()
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private var buffer: [UInt8] = []
    private var nextID = 0
    let profile: String

    /// Starts headless Chromium (no page yet: see `open`).
    init(profile: String, window: String = "1000,900") throws {
        guard let executable = WebBrowser.executable else {
            throw Failure(description: "chromium is not installed (scripts/setup.sh test installs it)")
        }
        self.profile = profile
        let inPath = profile + "/devtools-in", outPath = profile + "/devtools-out"
        guard mkfifo(inPath, 0o600) == 0, mkfifo(outPath, 0o600) == 0 else {
            throw Failure(description: "mkfifo in \(profile): errno \(errno)")
        }
        // Held until deinit has ended the browser (see WebBrowser.oneAtATime).
        WebBrowser.oneAtATime.wait()
        // Read-write ends: opening never blocks, and both stay open here.
        toBrowser = Glibc.open(inPath, O_RDWR | O_CLOEXEC)
        fromBrowser = Glibc.open(outPath, O_RDWR | O_CLOEXEC)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", "240", "/bin/bash", "-c", #"exec "$0" "$@" 3<"$IN" 4>"$OUT""#, executable,
                             "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                             "--disable-background-networking", "--remote-debugging-pipe",
                             "--user-data-dir=\(profile)/chromium", "--window-size=\(window)", "about:blank"]
        process.environment = ProcessInfo.processInfo.environment.merging(["IN": inPath, "OUT": outPath]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        do {
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: Self.emptyFile(profile + "/stderr")))
            try process.run()
        } catch {
            close(toBrowser)
            close(fromBrowser)
            WebBrowser.oneAtATime.signal()
            throw error
        }
    }

    deinit {
        if process.isRunning {
            _ = try? send("Browser.close", timeout: 5)
            if !TestPaths.eventually(5, { !self.process.isRunning }) { process.terminate() }
            process.waitUntilExit()
        }
        close(toBrowser)
        close(fromBrowser)
        WebBrowser.oneAtATime.signal()
    }

    private static func emptyFile(_ path: String) -> String {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return path
    }

    /// Opens `url` in a new tab and attaches to it.
    func open(_ url: String) throws -> Page {
        let target = try send("Target.createTarget", ["url": url])
        guard let id = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
        let attached = try send("Target.attachToTarget", ["targetId": id, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session: \(attached)") }
        return Page(session: session)
    }

    /// Opens `url` in a new tab whose uncaught errors (and unhandled
    /// promise rejections) are collected from before the page's first
    /// script: read them with `errors`. `before` runs first in the blank
    /// tab (e.g. to override its sensors), and `script` runs in the page
    /// before any script of its own.
    func openCollectingErrors(_ url: String, script: String = "", before: ((Page) throws -> Void)? = nil) throws -> Page {
        let page = try open("about:blank")
        try send("Page.enable", page: page)
        try before?(page)
        try send("Page.addScriptToEvaluateOnNewDocument", ["source": """
            window.collectedErrors = [];
            window.addEventListener('error', e => window.collectedErrors.push(String(e.message) + ' (line ' + e.lineno + ')'));
            window.addEventListener('unhandledrejection', e => window.collectedErrors.push('unhandled rejection: ' + String(e.reason)));
            """ + script], page: page)
        try send("Page.navigate", ["url": url], page: page)
        return page
    }

    /// The errors `openCollectingErrors` collected in `page` so far.
    func errors(_ page: Page) throws -> [String] {
        (try evaluate(page, "window.collectedErrors || ['no error collector']") as? [String]) ?? ["errors unreadable"]
    }

    /// The value of a JavaScript expression in `page` (JSON types).
    func evaluate(_ page: Page, _ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], page: page)
        if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Polls `expression` until it is true, at most `seconds`; while the
    /// page loads it may throw (no such element yet), which counts as false.
    func waitFor(_ page: Page, _ expression: String, seconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last = "false"
        while Date() < deadline {
            do {
                if try evaluate(page, expression) as? Bool == true { return }
                last = "false"
            } catch {
                last = "\(error)"
            }
            usleep(20_000)
        }
        throw Failure(description: "after \(seconds) s still not true (\(last)): \(expression)")
    }

    /// The centre of the element with `id`, in CSS pixels of the viewport.
    func centre(_ page: Page, of id: String, xFraction: Double = 0.5) throws -> (x: Double, y: Double) {
        let value = try evaluate(page, "(() => { const r = document.getElementById('\(id)').getBoundingClientRect(); "
            + "return [r.left + r.width * \(xFraction), r.top + r.height / 2]; })()")
        guard let point = value as? [Double], point.count == 2 else { throw Failure(description: "no element \(id)") }
        return (point[0], point[1])
    }

    /// A real mouse event (`mousePressed`, `mouseReleased`, `mouseMoved`) with the left button.
    func mouse(_ page: Page, _ type: String, at point: (x: Double, y: Double)) throws {
        _ = try send("Input.dispatchMouseEvent", ["type": type, "x": point.x, "y": point.y, "button": "left",
                                                  "buttons": type == "mouseReleased" ? 0 : 1, "clickCount": 1], page: page)
    }

    /// A PNG of the viewport rectangle of the element with `id`.
    func screenshot(_ page: Page, of id: String) throws -> Data {
        guard let rect = try evaluate(page, "(() => { const r = document.getElementById('\(id)').getBoundingClientRect(); "
            + "return [r.left, r.top, r.width, r.height]; })()") as? [Double], rect.count == 4 else {
            throw Failure(description: "no element \(id)")
        }
        let shot = try send("Page.captureScreenshot", ["format": "png", "clip": ["x": rect[0], "y": rect[1], "width": rect[2],
                                                                                 "height": rect[3], "scale": 1]], page: page)
        guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot: \(shot)")
        }
        return data
    }

    /// Sends one command and waits for its answer (events in between are skipped).
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], page: Page? = nil, timeout: Double = 60) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let page { message["sessionId"] = page.session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        let written = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw Failure(description: "\(method): the pipe to chromium failed") }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let answer = try nextMessage(deadline: deadline, method: method)
            guard answer["id"] as? Int == nextID else { continue }
            if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    private func nextMessage(deadline: Date, method: String) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                return (try JSONSerialization.jsonObject(with: message)) as? [String: Any] ?? [:]
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, process.isRunning else {
                let stderr = (try? String(contentsOfFile: profile + "/stderr", encoding: .utf8)) ?? ""
                throw Failure(description: "\(method): no answer from chromium (\(process.isRunning ? "timed out" : "exited")): "
                    + stderr.suffix(1500))
            }
            var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 0.2) * 1000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(fromBrowser, &chunk, chunk.count)
            if n > 0 { buffer.append(contentsOf: chunk[..<n]) }
        }
    }
}
