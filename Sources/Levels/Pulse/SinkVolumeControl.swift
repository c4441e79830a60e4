/// The default sink's volume through libpulse: read it, set it, and hear
/// about changes made elsewhere (`pactl set-sink-volume`, a desktop's mixer),
/// for a volume slider that really sets the output volume.
///
/// `@unchecked Sendable`: `lastReported` and `subscription` are touched only
/// with the mainloop lock held (callbacks, or `connection.withLock`).
public final class SinkVolumeControl: @unchecked Sendable {
    /// The sink every call addresses: whichever is the default at the time.
    static let defaultSink = "@DEFAULT_SINK@"

    private let connection: PulseConnection
    private var subscription: PulseCallback<Void>?
    private var lastReported: SinkVolume?

    /// - Parameter server: a libpulse server string; nil for libpulse's default.
    /// - Throws: `PulseError.mainloopUnavailable`.
    public init(server: String? = nil) throws(PulseError) {
        connection = try PulseConnection(server: server, clientName: "tiltd volume")
    }

    deinit { close() }

    /// The server the control talks to, for messages.
    public var serverDescription: String { connection.serverDescription }

    /// Connects to the server.
    ///
    /// - Throws: `PulseError.noServer`.
    public func connect() async throws(PulseError) {
        try await connection.connect()
    }

    /// The default sink's volume now.
    ///
    /// - Throws: `PulseError.noDefaultSink`, or `.requestFailed` when not connected.
    public func volume() async throws(PulseError) -> SinkVolume {
        SinkVolume(try await sinkInfo())
    }

    /// Sets the default sink's loudest channel to `fraction` (1 = 100 %),
    /// keeping the balance between channels.
    ///
    /// - Parameter fraction: 0…1.5; values outside are clamped (150 % is
    ///   the most desktop mixers offer).
    /// - Throws: `PulseError.noDefaultSink` or `.requestFailed`.
    public func setVolume(fraction: Double) async throws(PulseError) {
        let info = try await sinkInfo()
        let volumes = SinkVolume.scaled(info.channelVolumes, to: min(max(fraction, 0), 1.5))
        let done = await connection.request { (context, completion: @escaping (Bool) -> Void) in
            LibPulse.setSinkVolume(context, sink: info.name, channelVolumes: volumes, completion)
        }
        guard done == true else {
            throw .requestFailed(operation: "set the volume of sink \(info.name)",
                                 server: serverDescription, reason: "request refused or connection lost")
        }
    }

    /// Calls `onChange` (on libpulse's mainloop thread; do not block in it)
    /// whenever the default sink's volume or mute changes, or another sink
    /// becomes the default; first with the current volume. The subscription
    /// lasts until `close()` or until the server goes away.
    ///
    /// - Throws: `PulseError.requestFailed` when the server refuses.
    public func subscribe(_ onChange: @escaping @Sendable (SinkVolume) -> Void) async throws(PulseError) {
        let subscribed = await connection.request { (context, completion: @escaping (Bool) -> Void) in
            let callback = PulseCallback<Void> { [weak self] in self?.refresh(onChange) }
            self.subscription = callback
            LibPulse.subscribeToSinks(context, callback, completion)
        }
        guard subscribed == true else {
            throw .requestFailed(operation: "subscribe to sink changes", server: serverDescription,
                                 reason: "request refused or connection lost")
        }
        let current = try await volume()
        let report = connection.withLock { () -> Bool in
            guard lastReported == nil else { return false }
            lastReported = current
            return true
        }
        if report { onChange(current) }
    }

    /// On the mainloop thread: re-reads the default sink and reports it if
    /// it differs from what was last reported.
    private func refresh(_ onChange: @escaping @Sendable (SinkVolume) -> Void) {
        guard let context = connection.context else { return }
        LibPulse.sinkVolume(context, sink: SinkVolumeControl.defaultSink) { [weak self] info in
            guard let self, let info else { return }
            let volume = SinkVolume(info)
            guard volume != lastReported else { return }
            lastReported = volume
            onChange(volume)
        }
    }

    private func sinkInfo() async throws(PulseError) -> PulseSinkInfo {
        let info = await connection.request { (context, completion: @escaping (PulseSinkInfo?) -> Void) in
            LibPulse.sinkVolume(context, sink: SinkVolumeControl.defaultSink, completion)
        }
        switch info {
        case let info?? : return info
        case .some(nil): throw .noDefaultSink(server: serverDescription)
        case nil:
            throw .requestFailed(operation: "read the default sink's volume", server: serverDescription,
                                 reason: "not connected")
        }
    }

    /// Ends the subscription and disconnects. Not from `onChange`.
    public func close() {
        connection.close()
        connection.withLock { subscription = nil }
    }
}
