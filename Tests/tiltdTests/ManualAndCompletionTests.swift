import Foundation
import Testing
import TiltdTestSupport

/// `make install` installs a man page and shell completions, and
/// every doc. Checked without building in release: the
/// install recipe (`make -n`) and the completions the binary generates.
@Suite(.timeLimit(.minutes(15))) struct ManualAndCompletionTests {
    @Test func makeInstallPutsTheManPageCompletionsAndDocsInPlace() throws {
        let make = URL(fileURLWithPath: "/usr/bin/make")
        try #require(FileManager.default.isExecutableFile(atPath: make.path), "make is not installed")
        // -B: every step's recipe, whatever a release build here has made already.
        let r = try TiltdProcess.execute(make, ["-n", "-B", "-C", TiltdProcess.repositoryRoot.path, "install",
                                                "DESTDIR=/tmp/tiltd-dry", "PREFIX=/usr"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        for installed in ["/tmp/tiltd-dry/usr/bin/tiltd", "/tmp/tiltd-dry/usr/share/man/man1/tiltd.1",
                          "/tmp/tiltd-dry/usr/share/bash-completion/completions/tiltd",
                          "/tmp/tiltd-dry/usr/share/zsh/site-functions/_tiltd",
                          "/tmp/tiltd-dry/usr/share/fish/vendor_completions.d/tiltd.fish",
                          "docs/knob.md", "docs/trace-format.md"] {
            #expect(r.stdout.contains(installed), "make install does not install \(installed)")
        }
        #expect(r.stdout.contains("scripts/man-page.py --binary .build/release/tiltd --out .build/man/tiltd.1"))
    }

    /// What `make install` left out or installed unstripped: docs/dsu.md
    /// and the images docs/controls.md shows, the bundled recordings (which
    /// the installed binary's hint names), stripped binaries; and the build
    /// links the Swift runtime in, so the binaries run without a toolchain.
    @Test func makeInstallPutsEveryDocImageAndRecordingInPlaceStripped() throws {
        let make = URL(fileURLWithPath: "/usr/bin/make")
        try #require(FileManager.default.isExecutableFile(atPath: make.path), "make is not installed")
        let root = TiltdProcess.repositoryRoot
        let r = try TiltdProcess.execute(make, ["-n", "-B", "-C", root.path, "install",
                                                "DESTDIR=/tmp/tiltd-dry", "PREFIX=/usr"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("swift build -c release --static-swift-stdlib") }, "\(r.stdout)")
        for binary in ["tiltd", "tiltd-run"] {
            #expect(lines.contains { $0.hasPrefix("install -Dm0755 -s ") && $0.hasSuffix("/tmp/tiltd-dry/usr/bin/\(binary)") },
                    "\(binary) is not installed stripped")
        }
        func files(_ folder: String, _ suffix: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(suffix) }.map { folder + "/" + $0 }
        }
        let docs = try files("docs", ".md"), images = try files("docs/images", ".png")
        let recordings = try files("recordings", ".trace")
        #expect(docs.contains("docs/dsu.md") && !images.isEmpty && recordings.contains("recordings/synthetic-tilt-sweep.trace"))
        let installing = { (folder: String, file: String) in
            lines.contains { $0.hasPrefix("install -m0644 ") && $0.contains(" \(file) ") && $0.hasSuffix(folder) }
        }
        for doc in docs { #expect(installing("/tmp/tiltd-dry/usr/share/doc/tiltd/docs/", doc), "\(doc)") }
        for image in images { #expect(installing("/tmp/tiltd-dry/usr/share/doc/tiltd/docs/images/", image), "\(image)") }
        for recording in recordings {
            #expect(installing("/tmp/tiltd-dry/usr/share/tiltd/recordings/", recording), "\(recording)")
        }
    }

    /// Every string of the help JSON the page is made from, and the
    /// non-ASCII characters among them.
    static func helpTexts(_ node: Any) -> [String] {
        switch node {
        case let text as String: return [text]
        case let list as [Any]: return list.flatMap(helpTexts)
        case let object as [String: Any]:
            return ["abstract", "discussion", "subcommands", "arguments"].flatMap { object[$0].map(helpTexts) ?? [] }
        default: return []
        }
    }

    /// The page (then swift-argument-parser's plugin)
    /// dropped every non-ASCII character ("Frames per second (11000)") and
    /// its EXIT STATUS was generic, without 64.
    @Test func theManPageKeepsEveryCharacterAndListsTheExitStatuses() throws {
        let dump = try TiltdProcess.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let texts = Self.helpTexts(tool["command"] as Any)
        let nonASCII = Set(texts.joined().unicodeScalars.filter { !$0.isASCII })
        #expect(nonASCII.contains("–") && nonASCII.contains("²"), "the help has no en dash or ², the test checks nothing")
        let script = TiltdProcess.repositoryRoot.appendingPathComponent("scripts/man-page.py").path
        let made = try ExternalProgram.run("python3", [script, "--binary", TiltdProcess.binary.path, "--date", "2026-01-02"])
        #expect(made.status == 0, "\(made.stderr)")
        let page = made.stdout
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
        for scalar in nonASCII {
            #expect(page.contains(String(format: "\\[u%04X]", scalar.value)), "the page drops \(scalar)")
        }
        // Read as man would: groff's mdoc, on one very long line per paragraph.
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/tiltd.1"
        try Data(page.utf8).write(to: URL(fileURLWithPath: file))
        let shown = try ExternalProgram.run("groff", ["-mandoc", "-Tutf8", "-P-cbou", "-rLL=2000n", "-rHY=0", file])
        #expect(shown.status == 0 && !shown.stderr.contains("warning"), "\(shown.stderr)")
        let words = shown.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for text in texts where text.unicodeScalars.contains(where: { !$0.isASCII }) {
            let expected = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains(expected), "the page does not read: \(expected)")
        }
        let exitStatus = try #require(words.range(of: "EXIT STATUS"))
        let statuses = words[exitStatus.upperBound...]
        for status in ["0 Success", "1 A runtime error", "64 A usage error"] {
            #expect(statuses.contains(status), "EXIT STATUS lacks \(status)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsCoverEveryCommand(_ shell: String) throws {
        let r = try TiltdProcess.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.stderr)")
        // Fish lists long options without their dashes (-l max-frames).
        for word in ["run", "list", "record", "replay", "render", "serve", "max-frames", "overwrite", "realtime"] {
            #expect(r.stdout.contains(word), "\(shell) completion lacks \(word)")
        }
    }
}
