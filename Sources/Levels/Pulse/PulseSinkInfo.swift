/// What libpulse reported about a sink.
struct PulseSinkInfo: Sendable {
    var name: String
    var index: UInt32
    var channelVolumes: [UInt32]
    var muted: Bool
}
