/// Everything that shapes the way readings become tilt states.
public struct PipelineConfiguration: Sendable, Equatable {
    /// The default low-pass cutoff, Hz: the accelerometer-only output's
    /// trade-off between lag and error during hand motion (docs/motion.md).
    public static let defaultCutoffHertz = 6.0

    /// Low-pass cutoff in Hz (`defaultCutoffHertz` by default).
    public var cutoffHertz: Double
    /// Change-gate threshold in radians (default 0.0022, see `ChangeGate`).
    public var threshold: Double
    /// When false, every sample produces a state.
    public var gateEnabled: Bool
    /// The screen's orientation, fixed or following the classifier.
    public var screenOrientation: ScreenOrientationSetting
    /// The rest pose angles are measured from.
    public var neutral: NeutralPoseSetting
    /// The quiet band of the shake weighting (`GravityEstimate`).
    public var shakeBand: Double
    /// When true (the default) readings with a gyroscope go through
    /// `AttitudeFusion`; false keeps the accelerometer-only path.
    public var gyroEnabled: Bool
    /// The fusion filter's tuning.
    public var fusion: AttitudeFusion.Settings

    public init(cutoffHertz: Double = PipelineConfiguration.defaultCutoffHertz,
                threshold: Double = ChangeGate.defaultThreshold,
                gateEnabled: Bool = true,
                screenOrientation: ScreenOrientationSetting = .fixed(.normal),
                neutral: NeutralPoseSetting = .none,
                shakeBand: Double = GravityEstimate.quietBand,
                gyroEnabled: Bool = true,
                fusion: AttitudeFusion.Settings = AttitudeFusion.Settings()) {
        self.cutoffHertz = cutoffHertz
        self.threshold = threshold
        self.gateEnabled = gateEnabled
        self.screenOrientation = screenOrientation
        self.neutral = neutral
        self.shakeBand = shakeBand
        self.gyroEnabled = gyroEnabled
        self.fusion = fusion
    }
}
