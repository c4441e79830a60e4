import Commands
import Controls
import Foundation
import Motion
import Render
import Wording

extension RenderJob.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .larsBar(let invalid): invalid.message
        case .size(let size): "\(.size) must be 16…1024 pixels, got \(size)"
        case .framesPerSecond(let fps): "\(.fps) must be 1…1000 frames per second, got \(fps)"
        case .background(let background):
            "\(.background) must be six hex digits RRGGBB such as 131315, got '\(background)'"
        case .lightColourWithoutShine:
            "\(.lightColor) needs \(.style) mtz: TLTiltSlider's knob has no separate shine to colour"
        case .sliderValue(let value): "\(.slider) must be a value from 0 to 1, got \(value)"
        case .targets(let problem): problem.message
        case .pngWithoutDirectory: "\(.format) png needs \(.out) DIR for the frame files"
        case .oddSizeForY4M(let size, let width, let height):
            "\(.size) \(size) makes frames of \(width) × \(height) pixels; y4m's 4:2:0 chroma needs even "
                + "sides: give \(.size) \(size - 1) or \(size + 1) (or PNG frames)"
        case .y4mToTerminal:
            "refusing to write a y4m stream to a terminal: pipe it (| ffmpeg -i - out.mp4) or give \(.out) FILE.y4m"
        }
    }
}

extension RenderTargets.OptionProblem: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .cells(let cells): "\(.contactSheetFrames) must be 1…400, got \(cells)"
        case .columns(let columns): "\(.columns) must be 1…400, got \(columns)"
        case .shapeWithoutSheet:
            "\(.contactSheetFrames) and \(.columns) shape a contact sheet: give \(.contactSheet) FILE.png too"
        case .maxFrames(let maxFrames): "\(.maxFrames) must be a positive number of frames, got \(maxFrames)"
        case .overwriteWithoutPNG: "\(.overwrite) replaces PNG frames in \(.out) DIR; a y4m file is always replaced whole"
        }
    }
}

extension LARSBarRenderSettings.Invalid: SettingRefusal {
    public var message: SettingMessage {
        let number = ControlStill.numberText
        switch self {
        case .sliderInputsForTheKnob(let inputs):
            return "\(SettingMessage.list(inputs.map(\.setting))) for the LARSBar slider: add \(.control) larsbar"
        case .knobInputsForTheSlider(let inputs):
            return "\(SettingMessage.list(inputs.map(\.setting))) for the knob's own frames; the LARSBar "
                + "slider's frames are \(.width) × 44 pt × \(.scale) and its thumb is the MTZ knob: drop them"
        case .noLevelsFile: return "\(.control) larsbar needs \(.levelsFile) FILE.wav or FILE.jsonl for its lights"
        case .width(let width, let minimum, let maximum):
            return ControlStillError.points(width, dimension: .width, minimum: minimum, maximum: maximum).message
        case .scale(let scale): return "\(.scale) must be 1, 2 or 3 pixels per point, got \(scale)"
        case .value(let value): return "\(.value) must be 0…1, got \(value)"
        case .oddWidthForY4M(let width, let scale, let pixels, let evenWidth):
            return "\(.width) \(number(width)) at \(.scale) \(scale) makes frames \(pixels) pixels "
                + "wide; y4m's 4:2:0 chroma needs an even width: give \(.width) \(number(evenWidth)) "
                + "(or PNG frames)"
        }
    }
}

extension LARSBarRenderSettings.Input {
    /// The setting that gives this input on `tiltd render`'s command line.
    var setting: Setting {
        switch self {
        case .levelsFile: .levelsFile
        case .value: .value
        case .width: .width
        case .scale: .scale
        case .knobSize: .size
        case .knobStyle: .style
        case .sliderValue: .slider
        }
    }
}

extension RenderError: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .staleFrames(let directory, let count, let first):
            "\(directory) already holds \(count) frame files from an earlier render (\(first) …): pass \(.overwrite) "
                + "to replace them, or choose another \(.out)"
        case .contactSheetIsOutput(let sheet, let out, let outIsDirectory):
            "\(.contactSheet) \(sheet) is \(.out) \(out), "
                + (outIsDirectory ? "the PNG frames' directory" : "the y4m file")
                + ": give the contact sheet a file name of its own, such as contact-sheet.png"
        case .contactSheetAboveOutput(let sheet, let out):
            "\(.contactSheet) \(sheet) is a folder of \(.out) \(out): give the contact sheet a file name outside it"
        case .contactSheetInsideStream(let sheet, let out):
            "\(.contactSheet) \(sheet) lies inside \(.out) \(out), which is a y4m file: give the contact sheet a path "
                + "beside it"
        case .contactSheetHasFrameName(let sheet, let out):
            "\(.contactSheet) \(sheet) has a frame's name in \(.out) \(out): the sheet would replace that frame; give "
                + "it another name, such as contact-sheet.png"
        case .cannotRemoveFrame(let path, let reason): "cannot remove the earlier frame \(path): \(reason)"
        case .noReadings(let file): "\(file) has no readings to render; record some with tiltd record"
        case .tooManyFrames(let file, let frameCount, let fps, let limit, let explicit):
            Self.tooManyFrames(file: file, frameCount: frameCount, fps: fps, limit: limit, explicit: explicit)
        case .directoryNotWritable(let directory):
            "output directory \(directory) is not writable: choose another \(.out) or fix its permissions"
        case .cannotOpen(let path, let reason): "cannot open \(path) for writing: \(reason); choose a writable \(.out)"
        case .cannotWritePNG(let reason): "\(reason)"
        case .cannotWriteStream(let name, let reason): "cannot write the y4m stream to \(name): \(reason)"
        case .cannotFinish(let name, let reason): "cannot finish writing \(name): \(reason)"
        case .levelsFile(let reason): "\(.levelsFile): \(reason)"
        }
    }

    /// The refusal of a render over the frame limit: how many frames, and what to pass.
    private static func tooManyFrames(file: String, frameCount: Int, fps: Int, limit: Int,
                                      explicit: Bool) -> SettingMessage {
        let count = frameCount == Int.max ? "more than \(Int.max)" : "\(frameCount)"
        let seconds = String(format: "%.0f", Double(frameCount) / Double(fps))
        let limitText = "\(limit)" + (explicit ? "" : " (one hour of frames)")
        let pass = frameCount == Int.max ? "N" : "\(frameCount)"
        return "\(file) spans \(seconds) s: at \(fps) fps that is \(count) frames, over the limit of \(limitText)"
            + "; nothing was written. Pass \(.maxFrames) \(pass) to render them all, or lower \(.fps)"
    }
}
