import Devices
import Foundation
import Testing
import TiltdTestSupport

/// The docs say what the program does ("232 states" where render
/// printed 222, `# mode: buffered` where traces hold `buffer`, `--units`
/// listed for `run`, "errors are one line" for usage errors of three).
@Suite(.timeLimit(.minutes(15))) struct DocsAgreementTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOf: TiltdProcess.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func knobDocsRenderExampleShowsWhatRenderPrints() throws {
        let doc = try Self.read("docs/knob.md")
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        let command = try #require(lines.firstIndex { $0.hasPrefix("$ tiltd render recordings/ngimu-hand-motion.trace") })
        let documented = String(lines[command + 1])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tiltd-docs-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path
        let r = try TiltdProcess.run(["render", recording, "--out", dir.path, "--size", "16",
                                      "--contact-sheet", dir.appendingPathComponent("sheet.png").path])
        #expect(r.status == 0, "\(r.stderr)")
        let printed = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("tiltd: rendered") })
        func counts(_ line: Substring) -> [String] {
            ["rendered [0-9]+ frames", "from [0-9]+ states"].compactMap { pattern in
                line.range(of: pattern, options: .regularExpression).map { String(line[$0]) }
            }
        }
        #expect(counts(printed).count == 2)
        #expect(counts(Substring(documented)) == counts(printed), "docs: \(documented)\nprinted: \(printed)")
    }

    @Test func traceFormatDocsUseTheModeNamesTracesHold() throws {
        let doc = try Self.read("docs/trace-format.md")
        let modes = doc.split(separator: "\n").filter { $0.hasPrefix("# mode: ") }.map { String($0.dropFirst(8)) }
        #expect(!modes.isEmpty)
        for mode in modes {
            let parsed = CaptureMode(rawValue: mode)
            #expect(parsed != nil && parsed != .auto, "docs/trace-format.md shows '# mode: \(mode)'")
        }
    }

    @Test func readmesSharedPipelineOptionsAreAllAcceptedByRun() throws {
        let readme = try Self.read("README.md")
        let section = try #require(readme.range(of: "### Pipeline options (run, replay, render, serve)"))
        let end = try #require(readme.range(of: "### tiltd run", range: section.upperBound..<readme.endIndex))
        let table = readme[section.upperBound..<end.lowerBound]
        let options = table.split(separator: "\n").filter { $0.hasPrefix("| `--") }
            .compactMap { $0.dropFirst(3).split(separator: " ").first?.split(separator: "`").first }
        #expect(options.count >= 6)
        let help = try TiltdProcess.run(["run", "--help"])
        for option in options {
            #expect(help.stdout.contains(String(option)), "README lists \(option) for run; run --help lacks it")
        }
        // --units is documented apart, because run refuses it.
        #expect(!options.contains("--units"))
        let units = try TiltdProcess.run(["run", "--units", "g"])
        #expect(units.status == 64)
    }

    @Test func readmeDescribesErrorsAsTheyArePrinted() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains("A runtime error is one line on stderr"))
        #expect(readme.contains("a usage error is that one line followed\nby the command's usage (two more lines)"))
        let runtime = try TiltdProcess.run(["replay", "/nonexistent/tiltd.trace"])
        #expect(runtime.status == 1)
        #expect(runtime.stderr.split(separator: "\n").count == 1, "\(runtime.stderr)")
        let usage = try TiltdProcess.run(["replay"])
        #expect(usage.status == 64)
        let lines = usage.stderr.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].hasPrefix("Usage: tiltd replay"), "\(usage.stderr)")
    }

    /// The demo leads with a recording whose shines visibly turn and fade
    /// (it replayed a recording that stays within ±20°).
    @Test func theDemoLeadsWithARecordingThatTiltsFarEnoughToSee() throws {
        let script = try Self.read("scripts/main.sh")
        let first = try #require(script.split(separator: "\n").first { $0.hasPrefix("replay_and_render ") })
        let recording = try #require(first.split(separator: " ").last.map(String.init))
        #expect(recording == "recordings/synthetic-tilt-sweep.trace")
        let r = try TiltdProcess.run(["replay", TiltdProcess.repositoryRoot.appendingPathComponent(recording).path])
        #expect(r.status == 0)
        var rolls: [Double] = [], pitches: [Double] = []
        for line in r.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            rolls.append(object?["roll"] as? Double ?? 0)
            pitches.append(object?["pitch"] as? Double ?? 0)
        }
        // Roll both ways past 20° (the shines fade), pitch past upright (they turn apart).
        #expect((rolls.max() ?? 0) > 0.35 && (rolls.min() ?? 0) < -0.35)
        #expect((pitches.max() ?? 0) > .pi / 2)
        #expect(script.contains("look at out/sweep/contact-sheet.png"))
    }

    /// Main.sh called the NGIMU contact sheet's 6.7 s "10 s" (the
    /// recording's length; a render spans its first state to its last).
    @Test func theDemoSaysHowLongTheRealRecordingsSheetSpans() throws {
        let script = try Self.read("scripts/main.sh")
        #expect(script.contains("is $(states_span out/ngimu/states.jsonl) s of real hand motion"))
        let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/ngimu-hand-motion.trace").path
        let r = try TiltdProcess.run(["replay", recording])
        #expect(r.status == 0)
        let times = try r.stdout.split(separator: "\n").map { line in
            try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["t"] as? Double)
        }
        let span = try #require(times.last) - (try #require(times.first))
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let states = folder + "/states.jsonl"
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: states))
        // The function main.sh prints it with, taken from the script itself.
        let said = try ExternalProgram.run("bash", ["-c", #"source <(sed -n '/^states_span()/,/^}/p' "$1"); states_span "$2""#,
                                                    "bash", TiltdProcess.repositoryRoot.appendingPathComponent("scripts/main.sh").path,
                                                    states])
        #expect(said.status == 0, "\(said.stderr)")
        #expect(said.stdout == String(format: "%.1f\n", span))
        #expect(span < 9, "the states span the whole recording now: say so in main.sh")
    }

    /// Docs/levels.md cited ../shared/CONTROLS.md, outside the
    /// repository. Every relative link and path in the docs stays inside.
    @Test func docsCiteOnlyFilesInTheRepository() throws {
        let root = TiltdProcess.repositoryRoot.standardizedFileURL.path
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }
        for doc in ["README.md"] + docs.map({ "docs/" + $0 }) {
            let text = try Self.read(doc)
            let folder = URL(fileURLWithPath: root + "/" + doc).deletingLastPathComponent()
            var cited: [String] = []
            for pattern in [#"\]\(([^)#\s]+)"#, #"`(\.\./[^`\s]+)`"#] {
                let regex = try NSRegularExpression(pattern: pattern)
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range(at: 1), in: text) { cited.append(String(text[range])) }
                }
            }
            for target in cited where !target.contains("://") && !target.hasPrefix("mailto:") {
                let resolved = folder.appendingPathComponent(target).standardizedFileURL.path
                #expect(resolved.hasPrefix(root + "/"), "\(doc) cites \(target), outside the repository")
                #expect(FileManager.default.fileExists(atPath: resolved), "\(doc) cites \(target), which does not exist")
            }
        }
    }

    /// Every file the docs name by path (`Sources/Render/RenderRun.swift`,
    /// `bench/accuracy.sh`, a fixture's bare name in backticks) exists:
    /// a moved or renamed file must take its citations with it.
    @Test func everyFileTheDocsCiteExists() throws {
        let root = TiltdProcess.repositoryRoot.standardizedFileURL.path
        let files = Self.repositoryFiles(root)
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }
        let extensions = "swift|md|sh|py|c|h|trace|csv|umockdev|script|events|ioctl|js|html|css|service|rules|conf|txt|json|png"
        let regex = try NSRegularExpression(
            pattern: #"(?<![\w/.:~+-])((?:[\w.+*-]+/)*[\w.+*-]*[A-Za-z_*][\w.+*-]*\.(?:"# + extensions + #"))(?![\w/])"#)
        var checked = 0
        for doc in ["README.md"] + docs.sorted().map({ "docs/" + $0 }) {
            let text = try Self.read(doc)
            let folder = (doc as NSString).deletingLastPathComponent
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let cited = String(text[range])
                let inCode = range.lowerBound > text.startIndex && text[text.index(before: range.lowerBound)] == "`"
                    && range.upperBound < text.endIndex && text[range.upperBound] == "`"
                // A bare name counts when it is set as code; a path always.
                guard cited.contains("/") || inCode, !Self.writtenByRuns(cited) else { continue }
                checked += 1
                let patterns = [cited, "*/" + cited] + (folder.isEmpty ? [] : [folder + "/" + cited])
                let found = files.contains { (file: String) -> Bool in
                    patterns.contains { (pattern: String) -> Bool in fnmatch(pattern, file, 0) == 0 }
                }
                #expect(found, "\(doc) cites \(cited), which is no file of the repository")
            }
        }
        #expect(checked > 100)
    }

    /// Names of files that runs write (gitignored output folders, frames,
    /// the ring's traces), which the docs name but the repository never holds.
    static func writtenByRuns(_ path: String) -> Bool {
        path.hasPrefix("out/") || path.hasPrefix("bench/out/") || path.contains("frame-")
            || path.hasPrefix("ring-") || path.hasPrefix(".ring-")
            // Where an installation puts files (docs/packaging.md), not the tree.
            || path.hasPrefix("PREFIX/") || path.hasPrefix("usr/")
    }

    /// Every file under `root`, relative to it, leaving out build and output folders.
    static func repositoryFiles(_ root: String) -> [String] {
        var files: [String] = []
        let skipped: Set<String> = [".build", ".git", "out", ".swiftpm"]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        while let next = walker.nextObject() as? String {
            if skipped.contains(next) || next.hasPrefix(".build-") || next.hasPrefix("bench/out") || next.hasPrefix("bench/.build") {
                walker.skipDescendants()
                continue
            }
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(next) }
        }
        return files
    }

    /// The docs' client of the `--listen` socket is a program
    /// scripts/setup.sh installs (they named socat and nc, which it did not).
    @Test func theDocsSocketClientIsOneSetUpInstalls() throws {
        let setup = try Self.read("scripts/setup.sh")
        let base = try #require(setup.split(separator: "\n").first { $0.hasPrefix("want=(") })
        #expect(base.split(whereSeparator: { " ()".contains($0) }).contains("socat"), "\(base)")
        for doc in ["README.md", "docs/streaming.md"] {
            let text = try Self.read(doc)
            #expect(text.contains("socat - UNIX-CONNECT:"), "\(doc)")
            #expect(!text.contains("nc -U"), "\(doc) names nc, which set-up does not install")
        }
    }
}

