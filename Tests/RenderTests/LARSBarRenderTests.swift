import Controls
import Foundation
import Images
import Knob
import Levels
import Motion
import Render
import SamplePath
import Testing
import TiltdTestSupport

/// `tiltd render --control larsbar` in process: a short trace and a WAV
/// written here (a left-only tone, then silence) through the render loop to
/// PNG frames and y4m, checked against the slider's model, fade and painter.
@Suite(.timeLimit(.minutes(2))) struct LARSBarRenderTests {
    static let fps = 60, scale = 2
    static let widthPoints = 100.0, value = 0.8
    static let layout = EQSliderLayout(widthPoints: widthPoints)
    static let toneSeconds = 0.5, totalSeconds = 1.0

    /// 1 s of states 10 ms apart, rolling 0.01 rad a state: the thumb's shines move all along.
    static let states: [KnobState] = (0...100).map { i in
        KnobState(tilt: TiltState(timestampNanoseconds: Int64(i) * 10_000_000, roll: Double(i) * 0.01, pitch: -0.2,
                                  orientation: .normal))
    }

    /// A 44.1 kHz stereo WAV: a 440 Hz sine of peak 0.5 on the left only
    /// for `toneSeconds`, then silence up to `totalSeconds`.
    static func writeTone(in folder: String) throws -> String {
        let rate = 44_100
        var samples: [Float] = []
        for n in 0..<Int(totalSeconds * Double(rate)) {
            let t = Double(n) / Double(rate)
            samples += [t < toneSeconds ? Float(0.5 * sin(2 * Double.pi * 440 * t)) : 0, 0]
        }
        let path = folder + "/left-then-silence.wav"
        try WAVWriter.write(samples, channelCount: 2, sampleRateHertz: rate, to: path)
        return path
    }

    static func settings(_ format: RenderFormat, out: String, levelsFile: String) -> RenderSettings {
        RenderSettings(format: format, out: out, framesPerSecond: fps, size: 256, style: .mtz,
                       background: RGBA8(hex: "131315")!, light: .white, sliderValue: nil, contactSheet: nil,
                       contactSheetFrames: 24, contactSheetColumns: nil, quiet: true,
                       larsBar: LARSBarRenderSettings(levelsFile: levelsFile, value: value, widthPoints: widthPoints,
                                                      scale: scale))
    }

    /// A whole render through the lifecycle, as the command runs it.
    static func render(_ format: RenderFormat, out: String, levelsFile: String) async throws -> RenderRun {
        let settings = settings(format, out: out, levelsFile: levelsFile)
        let targets = try RenderTargets(format: format, out: out, contactSheet: nil, overwrite: false)
        let run = RenderRun(states: states, settings: settings, targets: targets,
                            painter: try settings.makePainter(states: states).painter)
        try await Lifecycle.withoutSignals.run([run])
        return run
    }

    /// One PNG render of the tone into a folder of its own, made once and
    /// read by every test that only looks at its frames (a render costs
    /// seconds of a debug build's time).
    static let tonePNGRender = Task { () throws -> (folder: String, run: RenderRun) in
        let folder = try TestPaths.temporaryDirectory()
        let run = try await render(.png, out: folder + "/frames", levelsFile: writeTone(in: folder))
        return (folder, run)
    }

    /// The animated shines of every frame, as the loop hands them to the painter.
    static var frameShines: [ShinePair] {
        var shines: [ShinePair] = []
        FrameSampler(states: states, framesPerSecond: fps).forEachFrame { shines.append($0.shines) }
        return shines
    }

    /// The device pixel under a light's dot centre (wholly inside the dot).
    static func dotCentre(_ i: Int, _ channel: EQChannel) -> (x: Int, y: Int) {
        let s = Double(scale)
        return (Int((layout.cellCentreX(i) * s).rounded(.down)) - 1,
                Int(((layout.cellMinY(channel) + EQSliderLayout.dotCentreInCell.y) * s).rounded(.down)) - 1)
    }

    /// The largest difference of any channel of any pixel.
    static func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    static let litGreen = RGBA8(r: 0, g: 230, b: 74), unlitActive = RGBA8(r: 96, g: 102, b: 106)

    @Test func aLeftToneLightsTheLeftRowThenFadesOutAlongTheCurve() async throws {
        let (folder, run) = try await Self.tonePNGRender.value
        let wav = folder + "/left-then-silence.wav"
        let outcome = try #require(run.outcome)
        // 1 s at 60 fps: one frame per period plus one past the end.
        #expect(outcome.finished && run.frameCount == 62 && outcome.framesWritten == 62)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
        #expect(names.count == run.frameCount)
        let frames = try names.map { try PNGReader.read(path: folder + "/frames/" + $0) }
        #expect(frames.allSatisfy { $0.width == 200 && $0.height == 88 })
        #expect(outcome.frameWidth == 200 && outcome.frameHeight == 88)

        // The levels the frames must show: the same file through the same maths.
        let track = try LevelTrack.load(path: wav)
        let n = Self.layout.lightCount
        func litLeft(_ seconds: Double) -> Int {
            EQSliderModel(value: Self.value, leftLevel: track.levels(atSeconds: seconds).left)
                .litCount(.left, lightCount: n)
        }
        // The tone has settled by 0.3 s: the same lights lit until it stops.
        let steadyRecords = track.records.filter { $0.seconds >= 0.3 && $0.seconds < Self.toneSeconds }
        let lit = litLeft(0.3)
        try #require(lit >= 4 && steadyRecords.allSatisfy { litLeft($0.seconds) == lit }, "lit \(lit)")
        #expect(track.records.allSatisfy { $0.right == 0 })

        let shines = Self.frameShines
        let painter = EQSliderPainter(layout: Self.layout, scale: Self.scale)
        let active = EQSliderModel(value: Self.value).activeCount(lightCount: n)
        for index in 24..<30 {  // 0.4 s to 0.483 s: the tone plays, the lights are settled
            let frame = frames[index]
            for i in 0..<4 {  // the green section, lit on the left
                let p = Self.dotCentre(i, .left)
                #expect(frame[p.x, p.y] == Self.litGreen, "frame \(index) left light \(i)")
            }
            for i in 0..<(active - 3) {  // the right row: active and dark (the thumb covers the last three)
                let p = Self.dotCentre(i, .right)
                #expect(frame[p.x, p.y] == Self.unlitActive, "frame \(index) right light \(i)")
            }
            let still = painter.paintSettled(EQSliderModel(value: Self.value, leftLevel: track.levels(
                atSeconds: Double(index) / Double(Self.fps)).left, rightLevel: 0), shines: shines[index])
            #expect(Self.largestDifference(frame, still) <= 1, "frame \(index) is not the still")
        }

        // After the tone: light i starts fading when the lit count drops to i or below.
        let after = track.records.filter { $0.seconds >= Self.toneSeconds - 0.01 }
        let offSeconds = try (0..<lit).map { i in
            try #require(after.first { litLeft($0.seconds) <= i }?.seconds, "light \(i) never goes out")
        }
        var previousGreen = Int(Self.litGreen.g)
        var previousSigma = 2.0
        for index in 30..<frames.count {
            let t = Double(index) / Double(Self.fps)
            let sigmas = (0..<n).map { i -> Double in
                guard i < lit else { return 0 }
                return t < offSeconds[i] ? 1 : 1 - EQLightFade.curve.progress((t - offSeconds[i]) / EQLightFade.durationSeconds)
            }
            let expected = painter.paint(EQSliderModel(value: Self.value),
                                         levels: EQLightLevels(left: sigmas, right: Array(repeating: 0, count: n)),
                                         shines: shines[index])
            #expect(Self.largestDifference(frames[index], expected) <= 1, "frame \(index) at \(t) s")
            // Light 0: σ falls frame after frame, its centre with it, to dark
            // within the fade time plus one frame of its level going.
            let green = Int(frames[index][Self.dotCentre(0, .left).x, Self.dotCentre(0, .left).y].g)
            if t >= offSeconds[0], previousSigma > 0 {
                #expect(sigmas[0] < previousSigma && green <= previousGreen, "frame \(index): σ \(sigmas[0])")
            }
            if t >= offSeconds[0] + EQLightFade.durationSeconds {
                #expect(frames[index][Self.dotCentre(0, .left).x, Self.dotCentre(0, .left).y] == Self.unlitActive)
            }
            previousSigma = sigmas[0]
            previousGreen = green
        }
        let firstDark = try #require((30..<frames.count).first { index in
            frames[index][Self.dotCentre(0, .left).x, Self.dotCentre(0, .left).y] == Self.unlitActive
        })
        #expect(Double(firstDark) / Double(Self.fps) <= offSeconds[0] + EQLightFade.durationSeconds + 1 / Double(Self.fps))
        #expect(Double(firstDark) / Double(Self.fps) > offSeconds[0], "it fades, not snaps")
    }

    @Test func theThumbsShineChangesWithTiltAndNothingElseDoes() async throws {
        let (folder, run) = try await Self.tonePNGRender.value
        #expect(run.outcome?.finished == true)
        // 0.4 s and 0.467 s: roll 0.4 and 0.47, the lights settled and unchanged.
        let a = try PNGReader.read(path: folder + "/frames/frame-000024.png")
        let b = try PNGReader.read(path: folder + "/frames/frame-000028.png")
        let s = Double(Self.scale), half = EQSliderPainter.thumbFramePoints / 2
        let centreX = EQSliderPainter(layout: Self.layout, scale: Self.scale)
            .thumbCentreX(EQSliderModel(value: Self.value))
        let thumbX = Int(((centreX - half) * s).rounded())..<Int(((centreX + half) * s).rounded())
        let thumbY = Int(((22 - half) * s).rounded())..<Int(((22 + half) * s).rounded())
        var changed = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                changed += 1
                #expect(thumbX.contains(x) && thumbY.contains(y), "pixel (\(x), \(y)) outside the thumb changed")
            }
        }
        #expect(changed > 20, "only \(changed) thumb pixels changed")
    }

    @Test func aY4MStreamHoldsEveryFrameOfTheControlsBounds() async throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/larsbar.y4m"
        let run = try await Self.render(.y4m, out: out, levelsFile: Self.writeTone(in: folder))
        let outcome = try #require(run.outcome)
        #expect(outcome.finished && outcome.framesWritten == 62)
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let writer = Y4MWriter(width: 200, height: 88, framesPerSecond: Self.fps)
        #expect(data.starts(with: Data("YUV4MPEG2 W200 H88 F60:1 ".utf8)))
        #expect(data.count == writer.header.count + 62 * writer.frameByteCount)
    }

    @Test func levelsJSONLinesGiveTheLevelsDirectlyAndABadLineIsNamed() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = folder + "/levels.jsonl"
        try Data((#"{"t":0,"left":0.5,"right":1}"# + "\n").utf8).write(to: URL(fileURLWithPath: good))
        let settings = Self.settings(.png, out: folder + "/f", levelsFile: good)
        let made = try settings.makePainter(states: Self.states)
        var painter = try #require(made.painter as? EQSliderFramePainter)
        var image = RGBAImage(width: 1, height: 1)
        painter.paint(FrameSampler(states: Self.states).frameZero, atSeconds: 0.5, into: &image)
        // floor(14 · 0.5 · 0.8) = 5 lit on the left, floor(14 · 0.8) = 11 on the right.
        #expect(painter.shownLevels.left == Array(repeating: 1, count: 5) + Array(repeating: 0, count: 9))
        #expect(painter.shownLevels.right == Array(repeating: 1, count: 11) + Array(repeating: 0, count: 3))
        // The file ends at 0 s, the trace at 1 s: the note says the last levels are held.
        #expect(made.note?.contains("levels in \(good) end at 0.00 s") == true)

        let bad = folder + "/bad.jsonl"
        try Data((#"{"t":0,"left":0.5,"right":1}"# + "\n" + #"{"t":0.1,"left":2}"# + "\n").utf8)
            .write(to: URL(fileURLWithPath: bad))
        #expect { try Self.settings(.png, out: folder + "/f", levelsFile: bad).makePainter(states: Self.states) }
            throws: { optionText($0).hasPrefix("--levels-file: \(bad):2: ") }
        let missing = folder + "/missing.wav"
        #expect { try Self.settings(.png, out: folder + "/f", levelsFile: missing).makePainter(states: Self.states) }
            throws: { "\($0)".contains("cannot read level file \(missing)") }
    }

    @Test func theOptionsAreCheckedBeforeAnythingIsWritten() {
        func problem(_ control: RenderControl, levels: String? = "a.wav", width: Double? = nil, scale: Int? = nil,
                     size: Int? = nil, value: Double? = nil, format: RenderFormat = .png) -> String? {
            guard case let .failure(error) = LARSBarRenderSettings.choose(
                control: control, levelsFile: levels, value: value, widthPoints: width, scale: scale, knobSize: size,
                knobStyle: nil, sliderValue: nil, format: format) else { return nil }
            return optionText(error)
        }
        #expect(problem(.larsbar) == nil)
        #expect(problem(.knob, levels: nil) == nil)
        #expect(problem(.knob)?.hasPrefix("--levels-file is for the LARSBar slider: add --control larsbar") == true)
        #expect(problem(.larsbar, levels: nil)?.contains("needs --levels-file") == true)
        #expect(problem(.larsbar, size: 64)?.hasPrefix("--size is for the knob's own frames") == true)
        #expect(problem(.larsbar, width: 10)?.hasPrefix("--width must be 20…2000 points") == true)
        #expect(problem(.larsbar, scale: 4)?.hasPrefix("--scale must be 1, 2 or 3") == true)
        #expect(problem(.larsbar, value: 1.5)?.hasPrefix("--value must be 0…1") == true)
        // y4m: an odd width is refused, with an even one to give instead; PNG frames may be odd.
        #expect(problem(.larsbar, width: 101, scale: 1, format: .y4m)
            == "--width 101 at --scale 1 makes frames 101 pixels wide; y4m's 4:2:0 chroma needs an even width: "
            + "give --width 100 (or PNG frames)")
        #expect(problem(.larsbar, width: 101, scale: 2, format: .y4m) == nil)
        #expect(problem(.larsbar, width: 101, scale: 1, format: .png) == nil)
    }
}

extension FrameSampler {
    /// The first frame's inputs.
    var frameZero: Frame {
        var first: Frame?
        forEachFrame { if first == nil { first = $0 } }
        return first!
    }
}
