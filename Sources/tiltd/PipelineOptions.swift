import ArgumentParser
import Motion
import Sensors

/// The pipeline's command-line options, shared by every command that turns
/// readings into states (`run`, `replay`, `render`, `serve`):
/// `@OptionGroup var pipeline: PipelineOptions`, then
/// `pipeline.makeConfiguration()`.
struct PipelineOptions: ParsableArguments {
    /// `--screen-orientation` values.
    enum ScreenOrientationArgument: String, ExpressibleByArgument, CaseIterable {
        case normal
        case bottomUp = "bottom-up"
        case leftUp = "left-up"
        case rightUp = "right-up"
        case auto

        var setting: ScreenOrientationSetting {
            switch self {
            case .normal: return .fixed(.normal)
            case .bottomUp: return .fixed(.bottomUp)
            case .leftUp: return .fixed(.leftUp)
            case .rightUp: return .fixed(.rightUp)
            case .auto: return .auto
            }
        }
    }

    @Option(name: .customLong("cutoff"), parsing: .unconditional, help: ArgumentHelp(
        "Low-pass filter cutoff in Hz.", valueName: "hz"))
    var cutoffHertz: Double = 5

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Change-gate threshold in radians: a state passes when roll or pitch moved at least this much "
            + "since the last one that passed (default 0.0022).", valueName: "rad"))
    var threshold: Double?

    @Option(name: .customLong("knob-radius"), parsing: .unconditional, help: ArgumentHelp(
        "Derive the threshold from the rendered knob's radius in pixels: 1/(3·radius), "
            + "a third of a pixel at the rim.", valueName: "px"))
    var knobRadiusPixels: Double?

    @Option(name: .customLong("screen-orientation"), help: ArgumentHelp(
        "How the screen is turned: normal, bottom-up, left-up, right-up, or auto (follow the "
            + "orientation iio-sensor-proxy would report).", valueName: "orientation"))
    var screenOrientation: ScreenOrientationArgument = .normal

    // Unconditional parsing: a negative roll ("-0.1,1.2") is a value, not an option.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Rest pose angles are measured from: 'auto' (mean of the first 0.5 s) or ROLL,PITCH in "
            + "radians, e.g. 0,1.5708 for an upright laptop lid (default: flat face up).",
        valueName: "auto|roll,pitch"))
    var neutral: String?

    @Flag(name: .customLong("no-gate"), help: "Emit a state for every sample (no change gate).")
    var noGate = false

    @Flag(name: .customLong("no-gyro"), help: ArgumentHelp(
        "Ignore the gyroscope: accelerometer-only filtering, as without one (default: fuse the gyro "
            + "when the device or recording has one)."))
    var noGyro = false

    @Option(name: .customLong("shake-band"), help: ArgumentHelp(
        "Accelerometer only: how far |a|² may stray from the device's g² (relative) before a sample counts "
            + "as shaking and is weighted down (smaller: steadier in shakes, slower after them; default 0.5).",
        valueName: "fraction"))
    var shakeBand: Double = GravityEstimate.quietBand

    @Option(name: .customLong("gyro-time-constant"), help: ArgumentHelp(
        "With a gyroscope: how slowly the accelerometer corrects the gyro's drift, in seconds "
            + "(longer: steadier during motion, slower to correct; default 1).", valueName: "s"))
    var gyroTimeConstantSeconds: Double = GravityFusion.Settings().timeConstantSeconds

    func validate() throws {
        guard cutoffHertz.isFinite, cutoffHertz > 0 else {
            throw ValidationError("--cutoff must be a positive frequency in Hz, got \(cutoffHertz)")
        }
        if let threshold {
            guard threshold.isFinite, threshold >= 0 else {
                throw ValidationError("--threshold must be a non-negative angle in radians, got \(threshold)")
            }
            if knobRadiusPixels != nil {
                throw ValidationError("give either --threshold or --knob-radius, not both")
            }
        }
        if let knobRadiusPixels {
            guard knobRadiusPixels.isFinite, knobRadiusPixels > 0 else {
                throw ValidationError("--knob-radius must be a positive number of pixels, got \(knobRadiusPixels)")
            }
        }
        guard shakeBand.isFinite, shakeBand > 0 else {
            throw ValidationError("--shake-band must be a positive fraction such as 0.5, got \(shakeBand)")
        }
        guard gyroTimeConstantSeconds.isFinite, gyroTimeConstantSeconds > 0 else {
            throw ValidationError("--gyro-time-constant must be a positive number of seconds, got \(gyroTimeConstantSeconds)")
        }
        _ = try neutralSetting()
    }

    /// The `--neutral` value as a setting.
    ///
    /// - Throws: `ValidationError` for anything but `auto` or two finite numbers.
    func neutralSetting() throws -> NeutralPoseSetting {
        guard let neutral else { return .none }
        guard let setting = NeutralPoseSetting(argument: neutral) else {
            throw ValidationError("--neutral must be 'auto' or ROLL,PITCH in radians such as 0,1.5708; got '\(neutral)'")
        }
        return setting
    }

    /// The configuration these options describe (call after validation).
    func makeConfiguration() -> PipelineConfiguration {
        let gateThreshold = threshold
            ?? knobRadiusPixels.map { ChangeGate.threshold(knobRadiusPixels: $0) }
            ?? ChangeGate.defaultThreshold
        return PipelineConfiguration(
            cutoffHertz: cutoffHertz,
            threshold: gateThreshold,
            gateEnabled: !noGate,
            screenOrientation: screenOrientation.setting,
            neutral: (try? neutralSetting()) ?? .none,
            shakeBand: shakeBand,
            gyroEnabled: !noGyro,
            fusion: GravityFusion.Settings(timeConstantSeconds: gyroTimeConstantSeconds))
    }
}
