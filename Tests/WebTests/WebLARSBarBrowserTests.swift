import Controls
import Foundation
import GoldenTesting
import Images
import Knob
import Motion
import Testing
import TiltdTestSupport
@testable import Web

/// The page's LARSBar slider in headless Chromium against an in-process
/// server: at a known state (levels, value, tilt) its canvas matches the
/// rasterizer's `EQSliderPainter` image.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebLARSBarBrowserTests {
    /// The known state: the value, the two levels and the tilt.
    static let value = 0.75, left = 0.5, right = 0.85
    static let state = KnobState(tilt: TiltState(timestampNanoseconds: 0, roll: 0.3, pitch: -0.2, orientation: .normal))

    /// Serves the slider with the known state streaming, loads
    /// `/?frames=1&still=1&pixels=1&scale=S` and returns the canvas's attributes.
    static func loadSlider(scale: Int, profile: String) async throws -> [String: String] {
        let bar = try WebLARSBar.render(interactive: false)
        let box = Box()
        try await WebServerTests.withServer(larsBar: bar) { server, port in
            server.feed.post(WebLARSBar.levelsChannel, json: #"{"t":1,"left":\#(left),"right":\#(right)}"#)
            server.feed.post(WebLARSBar.valueChannel, json: #"{"value":\#(value)}"#)
            // One state, already there when the page connects: the stream
            // closes after it (?frames=1). Headless Chromium may dump the DOM
            // before a 0.1 s fade ends, so the lights show their targets at
            // once (?still=1), as `paintSettled` paints them.
            server.feed.emit(state)
            let dom = try WebBrowser.run(["--virtual-time-budget=5000", "--dump-dom"],
                                         url: "http://127.0.0.1:\(port)/?frames=1&still=1&pixels=1&scale=\(scale)", profile: profile)
            box.attributes = WebBrowser.attributes(ofElementWithID: "larsbar", in: dom)
        }
        return box.attributes
    }

    final class Box: @unchecked Sendable { var attributes: [String: String] = [:] }

    /// The canvas's PNG data URL, decoded.
    static func pixels(_ attributes: [String: String]) throws -> RGBAImage {
        let url = try #require(attributes["data-pixels"], "the page exposed its pixels: \(attributes.keys.sorted())")
        let prefix = "data:image/png;base64,"
        #expect(url.hasPrefix(prefix))
        let data = try #require(Data(base64Encoded: String(url.dropFirst(prefix.count))))
        return try PNGReader.decode(Array(data))
    }

    /// Tolerances, in 8-bit levels per channel: the page's canvas (Skia's
    /// analytic antialiasing, 8-bit blending, bilinear thumb shines) against
    /// the rasterizer (4 × 4 samples a pixel, blending in doubles, exact
    /// shine angles). Fully covered pixels, the dot centres CONTROLS.md
    /// checks, agree within `centreLevels`; edges differ more, so the whole
    /// image is held to a mean and a maximum.
    static let centreLevels = 2, meanLevels = 1.5, maximumLevels = 40

    @Test(.enabled(if: WebBrowser.executable != nil), arguments: [1, 2, 3])
    func thePageDrawsTheSliderAsTheRasterizerDoes(scale: Int) async throws {
        let profile = try TestPaths.temporaryDirectory()
        let attributes = try await Self.loadSlider(scale: scale, profile: profile)
        #expect(attributes["data-settled"] == "true", "\(attributes.filter { $0.key != "data-pixels" })")
        #expect(attributes["data-lit"] == "15 25", "floor(40 · ℓ · 0.75): \(attributes["data-lit"] ?? "")")
        #expect(attributes["data-active"] == "30")
        let page = try Self.pixels(attributes)
        let layout = EQSliderLayout(widthPoints: 280)
        let painter = EQSliderPainter(layout: layout, scale: scale)
        let model = EQSliderModel(value: Self.value, leftLevel: Self.left, rightLevel: Self.right)
        let want = painter.paintSettled(model, shines: Self.state.shines)
        try #require(page.width == want.width && page.height == want.height, "\(page.width)×\(page.height)")
        func difference(_ p: Int) -> Int { (0..<4).map { abs(Int(page.pixels[p + $0]) - Int(want.pixels[p + $0])) }.max()! }
        // Every dot's centre pixel in both rows, but those under the thumb.
        let thumb = painter.thumbCentreX(model)
        for channel in EQChannel.allCases {
            for i in 0..<layout.lightCount where abs(layout.cellCentreX(i) - thumb) > EQSliderPainter.thumbFramePoints / 2 {
                let x = Int((layout.cellMinX(i) + EQSliderLayout.dotCentreInCell.x) * Double(scale))
                let y = Int((layout.cellMinY(channel) + EQSliderLayout.dotCentreInCell.y) * Double(scale))
                let p = (y * want.width + x) * 4
                #expect(difference(p) <= Self.centreLevels,
                        "\(channel) light \(i) at (\(x), \(y)): page \(page.pixels[p..<p + 4]), rasterizer \(want.pixels[p..<p + 4])")
            }
        }
        if scale == 2 {
            // CONTROLS.md §1's checks on the page itself: a lit green dot, an unlit active one.
            let lit = ((layout.cellMinY(.left) + 5.5) * 2, (layout.cellMinX(0) + 5) * 2)
            let dark = ((layout.cellMinY(.left) + 5.5) * 2, (layout.cellMinX(20) + 5) * 2)
            for (point, colour) in [(lit, [0, 230, 74, 255]), (dark, [96, 102, 106, 255])] {
                let p = (Int(point.0) * page.width + Int(point.1)) * 4
                #expect(page.pixels[p..<p + 4].map(Int.init) == colour)
            }
        }
        var sum = 0
        for p in stride(from: 0, to: want.pixels.count, by: 4) {
            for c in 0..<4 { sum += abs(Int(page.pixels[p + c]) - Int(want.pixels[p + c])) }
        }
        let mean = Double(sum) / Double(want.pixels.count)
        let far = GoldenImage.difference(page, want, tolerance: Self.maximumLevels)
        #expect(mean <= Self.meanLevels, "mean difference \(mean) levels")
        #expect(far.count == 0, "\(far.count) pixels differ by more than \(Self.maximumLevels), first \(String(describing: far.first))")
        print("LARSBar page vs rasterizer at \(scale)×: mean \(mean) levels, largest \(GoldenImage.difference(page, want, tolerance: 0).maxChannel)")
    }
}
