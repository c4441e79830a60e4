import Foundation
import Images
import Knob
import Testing
import TiltdTestSupport

/// Every image under docs/ is what the command the docs show for it makes
/// today: the command is run as written (in a scratch folder, where `out/`
/// is made first as the docs say) and its image compared pixel for pixel.
/// `RECORD_GOLDEN=1` copies the new image over the stale one (and fails,
/// saying so).
@Suite(.timeLimit(.minutes(15))) struct DocsImagesTests {
    struct Picture: CustomTestStringConvertible, Sendable {
        /// Under docs/images.
        var image: String
        /// The doc that shows the image and the command, as it is written there.
        var doc: String
        var command: String
        /// What the command writes, relative to where it runs.
        var output: String
        var testDescription: String { image }
    }

    static let pictures: [Picture] = [
        Picture(image: "larsbar.png", doc: "docs/controls.md",
                command: "tiltd draw larsbar --width 280 --scale 2 --value 0.7 --levels 0.9,0.6 --roll 0.3 --pitch 0.1 "
                    + "--out out/larsbar.png",
                output: "out/larsbar.png"),
        Picture(image: "larsbar-live-page.png", doc: "docs/controls.md",
                command: "tiltd draw larsbar --scale 2 --value 0.75 --levels 0.5,0.85 --roll 0.3 --pitch -0.2 "
                    + "--out out/larsbar-live-page.png",
                output: "out/larsbar-live-page.png"),
        Picture(image: "larsbar-render.png", doc: "docs/controls.md",
                command: """
                    sox -n -r 44100 -c 2 out/beat.wav synth 7 sine 220 sine 330 synth sine amod 0.35 sine amod 0.6
                    tiltd render recordings/ngimu-hand-motion.trace --control larsbar --levels-file out/beat.wav --value 0.8 --fps 10 \\
                        --out out/larsbar --contact-sheet out/larsbar-render.png --contact-sheet-frames 6 --columns 2
                    """,
                output: "out/larsbar-render.png"),
        Picture(image: "larsbar-amber-light.png", doc: "docs/controls.md",
                command: "tiltd draw larsbar --width 280 --scale 2 --value 0.7 --levels 0.9,0.6 --roll 0.3 --pitch 0.1 "
                    + "--light-color FFBF40 --out out/larsbar-amber-light.png",
                output: "out/larsbar-amber-light.png"),
        Picture(image: "spark.png", doc: "docs/controls.md",
                command: "tiltd draw spark --size 320 --scale 1 --duration 10 --holds 2,3,1.5 --seed 3 --out out/spark.png",
                output: "out/spark.png"),
        Picture(image: "rgb.png", doc: "docs/controls.md",
                command: "tiltd draw rgb --color 1,0.75,0.25,1 --width 280 --scale 1 --out out/rgb.png",
                output: "out/rgb.png"),
        Picture(image: "rgb-red-track.png", doc: "docs/controls.md",
                command: "tiltd draw rgb --color 0.2,0.4,0.6,1 --width 256 --scale 1 --track red --out out/rgb-red-track.png",
                output: "out/rgb-red-track.png"),
    ]

    /// Screenshots of the page in headless Chromium, made by the browser
    /// test the doc names (its pixels are the browser's, not tiltd's).
    static let browserPictures: [(image: String, test: String)] = [
        ("page-light.png", "Tests/WebTests/WebControlsBrowserTests.swift"),
        ("page-ring.png", "Tests/WebTests/WebControlsBrowserTests.swift"),
    ]

    static let root = TiltdProcess.repositoryRoot

    @Test func everyImageUnderDocsHasItsCommand() throws {
        let images = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs/images").path)
            .filter { $0.hasSuffix(".png") }.sorted()
        let known = (Self.pictures.map(\.image) + Self.browserPictures.map(\.image)).sorted()
        #expect(images == known, "an image under docs/images needs its command in DocsImagesTests.pictures")
        let controls = try String(contentsOf: Self.root.appendingPathComponent("docs/controls.md"), encoding: .utf8)
        for (image, test) in Self.browserPictures {
            #expect(controls.contains("images/\(image)") && controls.contains(test), "\(image)")
        }
    }

    @Test(arguments: pictures)
    func theImageIsWhatItsCommandMakes(_ picture: Picture) throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent(picture.doc), encoding: .utf8)
        #expect(doc.contains("images/\(picture.image)"), "\(picture.doc) does not show \(picture.image)")
        #expect(doc.contains(picture.command), "\(picture.doc) does not show the command of \(picture.image):\n\(picture.command)")
        // The examples write under out/, made first as the doc says; recordings/ is the repository's.
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/recordings",
                                                   withDestinationPath: Self.root.appendingPathComponent("recordings").path)
        let path = TiltdProcess.binary.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try ExternalProgram.run("bash", ["-euo", "pipefail", "-c", "cd \"$0\"\n" + picture.command, folder],
                                          environment: ["PATH": path], timeoutSeconds: 300)
        #expect(run.status == 0 && !run.timedOut, "\(run.stderr)")
        let made = try PNGReader.read(path: folder + "/" + picture.output)
        let documented = Self.root.appendingPathComponent("docs/images/" + picture.image).path
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try FileManager.default.removeItem(atPath: documented)
            try FileManager.default.copyItem(atPath: folder + "/" + picture.output, toPath: documented)
            Issue.record("copied \(picture.output) over \(documented) because RECORD_GOLDEN=1; run again without it")
            return
        }
        let shown = try PNGReader.read(path: documented)
        #expect(shown.width == made.width && shown.height == made.height,
                "\(documented) is \(shown.width)×\(shown.height); the command makes \(made.width)×\(made.height)")
        #expect(shown.pixels == made.pixels,
                "\(documented) is stale: it differs from what its command makes (RECORD_GOLDEN=1 replaces it)")
    }
}
