import Jobs
import Knob
import Motion
import Streaming
import Testing

/// `tiltd render`'s option checks, in process: each refusal names its option,
/// and accepted options become the settings the frame loop runs with.
@Suite struct RenderJobTests {
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
}
