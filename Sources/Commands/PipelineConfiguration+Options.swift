import Motion
import Wording

extension PipelineConfiguration {
    /// The configuration the command line's pipeline options describe
    /// (`Setting.cutoff`, `Setting.threshold` or `Setting.knobRadius`, `Setting.noGate`,
    /// `Setting.screenOrientation`, `Setting.neutral`, `Setting.shakeBand`, `Setting.noGyro`,
    /// `Setting.gyroTimeConstant`; docs/motion.md), checked.
    ///
    /// - Parameters:
    ///   - threshold: the gate's threshold in radians; nil derives it from
    ///     `knobRadiusPixels` (`ChangeGate.threshold(knobRadiusPixels:)`),
    ///     or without either uses `ChangeGate.defaultThreshold`.
    ///   - neutral: `Setting.neutral` as given (`NeutralPoseSetting(argument:)`);
    ///     nil: measured from flat, face up.
    /// - Throws: `SettingError` naming the first option that is out of range.
    public init(cutoffHertz: Double, threshold: Double?, knobRadiusPixels: Double?, gateEnabled: Bool,
                screenOrientation: ScreenOrientationSetting, neutral: String?, shakeBand: Double,
                gyroEnabled: Bool, gyroTimeConstantSeconds: Double) throws(SettingError) {
        guard cutoffHertz.isFinite, cutoffHertz > 0 else {
            throw SettingError("\(.cutoff) must be a positive frequency in Hz, got \(cutoffHertz)")
        }
        if let threshold {
            guard threshold.isFinite, threshold >= 0 else {
                throw SettingError("\(.threshold) must be a non-negative angle in radians, got \(threshold)")
            }
            if knobRadiusPixels != nil {
                throw SettingError("give either \(.threshold) or \(.knobRadius), not both")
            }
        }
        if let knobRadiusPixels {
            guard knobRadiusPixels.isFinite, knobRadiusPixels > 0 else {
                throw SettingError("\(.knobRadius) must be a positive number of pixels, got \(knobRadiusPixels)")
            }
        }
        guard shakeBand.isFinite, shakeBand > 0 else {
            throw SettingError("\(.shakeBand) must be a positive fraction such as 0.5, got \(shakeBand)")
        }
        guard gyroTimeConstantSeconds.isFinite, gyroTimeConstantSeconds > 0 else {
            throw SettingError("\(.gyroTimeConstant) must be a positive number of seconds, got \(gyroTimeConstantSeconds)")
        }
        var neutralSetting = NeutralPoseSetting.none
        if let neutral {
            guard let setting = NeutralPoseSetting(argument: neutral) else {
                throw SettingError("\(.neutral) must be 'auto' or ROLL,PITCH in radians such as 0,1.5708; got '\(neutral)'")
            }
            neutralSetting = setting
        }
        self.init(cutoffHertz: cutoffHertz,
                  threshold: threshold ?? knobRadiusPixels.map { ChangeGate.threshold(knobRadiusPixels: $0) }
                      ?? ChangeGate.defaultThreshold,
                  gateEnabled: gateEnabled, screenOrientation: screenOrientation, neutral: neutralSetting,
                  shakeBand: shakeBand, gyroEnabled: gyroEnabled,
                  fusion: AttitudeFusion.Settings(accelerationTimeConstantSeconds: gyroTimeConstantSeconds))
    }
}
