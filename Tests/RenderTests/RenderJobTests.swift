import Knob
import Motion
import Render
import Testing

/// `tiltd render`'s option checks, in process: each refusal names its option,
/// and accepted options become the settings the frame loop runs with.
@Suite(.timeLimit(.minutes(2))) struct RenderJobTests {
    private func job(format: RenderFormat? = nil, out: String? = "/tmp/frames", fps: Int = 60, size: Int? = nil,
                     style: KnobStyle? = nil, background: String = "131315", light: LightColour = .white,
                     slider: Double? = nil, maxFrames: Int? = nil) throws(SettingError) -> RenderJob {
        try RenderJob(file: "rec.trace", format: format, out: out, framesPerSecond: fps, size: size, style: style,
                      background: background, light: light, sliderValue: slider, contactSheet: nil,
                      contactSheetFrames: nil, contactSheetColumns: nil, maxFrames: maxFrames, overwrite: false,
                      quiet: true, larsBar: .success(nil))
    }

    @Test func eachRefusalNamesItsOption() {
        let cases: [(String, () throws(SettingError) -> RenderJob)] = [
            ("--fps", { () throws(SettingError) in try job(fps: 0) }),
            ("--size", { () throws(SettingError) in try job(size: 15) }),
            ("--background", { () throws(SettingError) in try job(background: "12345g") }),
            ("--light-color", { () throws(SettingError) in
                try job(style: .tltilt, light: LightColour(red: 255, green: 0, blue: 0)) }),
            ("--slider", { () throws(SettingError) in try job(slider: 1.5) }),
            ("--out", { () throws(SettingError) in try job(format: .png, out: nil) }),
        ]
        for (option, make) in cases {
            do {
                _ = try make()
                Issue.record("\(option): accepted")
            } catch {
                #expect(optionText(error).contains(option), "\(error.description)")
            }
        }
    }

    @Test func acceptedOptionsBecomeTheSettings() throws {
        let made = try job(out: "clip.Y4M", fps: 30, size: 128, maxFrames: 10)
        #expect(made.settings.format == .y4m)
        #expect(made.settings.size == 128)
        #expect(made.settings.style == .mtz)
        #expect(made.settings.framesPerSecond == 30)
        #expect(made.frameLimit == 10)
        #expect(try job().frameLimit == 3600 * 60)
        #expect(try job().settings.format == .png)
    }

    /// 4:2:0 chroma needs even sides: an odd knob size is refused for y4m
    /// before anything is written (ffmpeg refused the stream afterwards),
    /// as the LARSBar slider's odd width is; PNG frames take any size.
    @Test func anOddSizeIsRefusedForY4MOnly() throws {
        #expect(throws: SettingError("\(.size) 101 makes frames of 101 × 101 pixels; y4m's 4:2:0 chroma needs even "
            + "sides: give \(.size) 100 or 102 (or PNG frames)")) {
            try job(format: .y4m, out: "knob.y4m", size: 101)
        }
        #expect(throws: SettingError("\(.size) 17 makes frames of 68 × 17 pixels; y4m's 4:2:0 chroma needs even "
            + "sides: give \(.size) 16 or 18 (or PNG frames)")) {
            try job(format: .y4m, out: "knob.y4m", size: 17, slider: 0.5)
        }
        #expect(try job(format: .y4m, out: "knob.y4m", size: 100).settings.size == 100)
        #expect(try job(format: .png, size: 101).settings.size == 101)
    }
}
