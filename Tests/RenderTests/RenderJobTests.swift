import Knob
import Render
import Testing

/// `tiltd render`'s option checks, in process: each refusal names its option,
/// and accepted options become the settings the frame loop runs with.
@Suite(.timeLimit(.minutes(2))) struct RenderJobTests {
    private func job(format: RenderFormat? = nil, out: String? = "/tmp/frames", fps: Int = 60, size: Int? = nil,
                     style: KnobStyle? = nil, background: String = "131315", light: LightColour = .white,
                     slider: Double? = nil, maxFrames: Int? = nil) throws(RenderJob.Invalid) -> RenderJob {
        try RenderJob(file: "rec.trace", format: format, out: out, framesPerSecond: fps, size: size, style: style,
                      background: background, light: light, sliderValue: slider, contactSheet: nil,
                      contactSheetFrames: nil, contactSheetColumns: nil, maxFrames: maxFrames, overwrite: false,
                      quiet: true, larsBar: .success(nil))
    }

    @Test func eachRefusalSaysWhatIsWrong() {
        #expect(throws: RenderJob.Invalid.framesPerSecond(0)) { try job(fps: 0) }
        #expect(throws: RenderJob.Invalid.size(15)) { try job(size: 15) }
        #expect(throws: RenderJob.Invalid.background("12345g")) { try job(background: "12345g") }
        #expect(throws: RenderJob.Invalid.lightColourWithoutShine) {
            try job(style: .tltilt, light: LightColour(red: 255, green: 0, blue: 0))
        }
        #expect(throws: RenderJob.Invalid.sliderValue(1.5)) { try job(slider: 1.5) }
        #expect(throws: RenderJob.Invalid.pngWithoutDirectory) { try job(format: .png, out: nil) }
        #expect(throws: RenderJob.Invalid.targets(.maxFrames(0))) { try job(maxFrames: 0) }
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
        #expect(throws: RenderJob.Invalid.oddSizeForY4M(size: 101, width: 101, height: 101)) {
            try job(format: .y4m, out: "knob.y4m", size: 101)
        }
        #expect(throws: RenderJob.Invalid.oddSizeForY4M(size: 17, width: 68, height: 17)) {
            try job(format: .y4m, out: "knob.y4m", size: 17, slider: 0.5)
        }
        #expect(try job(format: .y4m, out: "knob.y4m", size: 100).settings.size == 100)
        #expect(try job(format: .png, size: 101).settings.size == 101)
    }
}
