/// A sink's volume as the slider shows it.
public struct SinkVolume: Sendable, Equatable {
    /// The sink's PulseAudio name (e.g. "alsa_output.pci-0000_00_1f.3.analog-stereo").
    public var sinkName: String
    /// Each channel's volume; 1 = 100 % (PA_VOLUME_NORM), may exceed 1 when
    /// boosted elsewhere.
    public var channelFractions: [Double]
    public var muted: Bool

    public init(sinkName: String, channelFractions: [Double], muted: Bool) {
        self.sinkName = sinkName
        self.channelFractions = channelFractions
        self.muted = muted
    }

    /// The loudest channel's volume: what pavucontrol's unlocked slider and
    /// `SinkVolumeControl.setVolume` move, keeping the balance between channels.
    public var fraction: Double { channelFractions.max() ?? 0 }

    init(_ info: PulseSinkInfo) {
        let normal = Double(LibPulse.normalVolume)
        self.init(sinkName: info.name, channelFractions: info.channelVolumes.map { Double($0) / normal },
                  muted: info.muted)
    }

    /// Channel volumes in libpulse units scaled so the loudest is
    /// `fraction`, keeping their ratios (all equal when every channel is 0).
    static func scaled(_ channelVolumes: [UInt32], to fraction: Double) -> [UInt32] {
        let target = (max(fraction, 0) * Double(LibPulse.normalVolume)).rounded()
        let loudest = Double(channelVolumes.max() ?? 0)
        return channelVolumes.map { volume in
            let value = loudest > 0 ? (target * Double(volume) / loudest).rounded() : target
            return UInt32(min(value, Double(UInt32.max)))
        }
    }
}
