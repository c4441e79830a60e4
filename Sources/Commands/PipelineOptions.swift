import ArgumentParser
import Motion

/// The pipeline's command-line options, shared by every command that turns
/// readings into states (`run`, `replay`, `render`, `serve`):
/// `@OptionGroup var pipeline: PipelineOptions`, then
/// `pipeline.configuration()`.
public struct PipelineOptions: ParsableArguments {
    @Option(name: .customLong("cutoff"), parsing: .unconditional, help: ArgumentHelp(
        "Low-pass filter cutoff in Hz.", valueName: "hz"))
    var cutoffHertz: Double = PipelineConfiguration.defaultCutoffHertz

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
            + "discrete orientation: the edge that points up, once it has stood for 1 s).",
        valueName: "orientation"))
    var screenOrientation: ScreenOrientationSetting = .fixed(.normal)

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
    public var noGyro = false

    @Option(name: .customLong("shake-band"), help: ArgumentHelp(
        "Accelerometer only: how far |a|² may stray from the device's g² (relative) before a sample counts "
            + "as shaking and is weighted down (smaller: steadier in shakes, slower after them).",
        valueName: "fraction"))
    var shakeBand: Double = GravityEstimate.quietBand

    @Option(name: .customLong("gyro-time-constant"), help: ArgumentHelp(
        "With a gyroscope: the time constant of the low-pass that tells gravity from the device's own "
            + "accelerations, in seconds (longer: steadier while carried or shaken, slower to correct the "
            + "gyro's drift).", valueName: "s"))
    var gyroTimeConstantSeconds: Double = AttitudeFusion.Settings().accelerationTimeConstantSeconds

    public init() {}

    public func validate() throws { _ = try configuration() }

    /// The checked configuration these options describe.
    public func configuration() throws -> PipelineConfiguration {
        try validating {
            try PipelineConfiguration(
                cutoffHertz: cutoffHertz, threshold: threshold, knobRadiusPixels: knobRadiusPixels,
                gateEnabled: !noGate, screenOrientation: screenOrientation, neutral: neutral,
                shakeBand: shakeBand, gyroEnabled: !noGyro, gyroTimeConstantSeconds: gyroTimeConstantSeconds)
        }
    }
}

extension ScreenOrientationSetting: ExpressibleByArgument {
    public static var allValueStrings: [String] { argumentTexts }
    public var defaultValueDescription: String { argumentText }
}
