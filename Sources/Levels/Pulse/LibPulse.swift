import CPulse

/// Every raw libpulse call tiltd makes, and nothing else.
///
/// Pointers stay `OpaquePointer`s; `PulseConnection`, `LevelMeter` and
/// `SinkVolumeControl` own them and turn failures into `PulseError`s.
/// libpulse's asynchronous API runs its callbacks on the threaded
/// mainloop's thread with the mainloop lock held; every other thread must
/// hold that lock (`lock`/`unlock`) around the calls below.
enum LibPulse {
    // MARK: Threaded mainloop

    static func makeMainloop() -> OpaquePointer? { pa_threaded_mainloop_new() }
    static func start(_ mainloop: OpaquePointer) -> Int32 { pa_threaded_mainloop_start(mainloop) }
    /// Stops the mainloop thread; never call it with the lock held.
    static func stop(_ mainloop: OpaquePointer) { pa_threaded_mainloop_stop(mainloop) }
    /// Frees a stopped mainloop. Only `PulseConnection.close` calls this.
    static func free(_ mainloop: OpaquePointer) { pa_threaded_mainloop_free(mainloop) }
    static func lock(_ mainloop: OpaquePointer) { pa_threaded_mainloop_lock(mainloop) }
    static func unlock(_ mainloop: OpaquePointer) { pa_threaded_mainloop_unlock(mainloop) }
    static func isMainloopThread(_ mainloop: OpaquePointer) -> Bool {
        pa_threaded_mainloop_in_thread(mainloop) != 0
    }

    // MARK: Context

    /// A new context on `mainloop`; the C function is `pa_context_new`.
    static func makeContext(_ mainloop: OpaquePointer, clientName: String) -> OpaquePointer? {
        pa_context_new(pa_threaded_mainloop_get_api(mainloop), clientName)
    }

    /// Calls `callback` on every state change; the owner keeps `callback` alive.
    static func onStateChange(_ context: OpaquePointer, _ callback: PulseCallback<Void>) {
        pa_context_set_state_callback(context, { _, userdata in
            PulseCallback<Void>.unretained(userdata).body(())
        }, callback.opaque)
    }

    /// Starts connecting without ever spawning a server (a missing server is
    /// reported, not started behind the user's back). `server` nil: libpulse's
    /// default (PULSE_SERVER, client.conf, $XDG_RUNTIME_DIR/pulse/native).
    static func connect(_ context: OpaquePointer, server: String?) -> Int32 {
        pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil)
    }

    static func state(_ context: OpaquePointer) -> PulseContextState {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY: return .ready
        case PA_CONTEXT_FAILED: return .failed
        case PA_CONTEXT_TERMINATED: return .terminated
        default: return .connecting
        }
    }

    /// The context's last error in words (`pa_strerror(pa_context_errno(c))`).
    static func lastError(_ context: OpaquePointer) -> String {
        String(cString: pa_strerror(pa_context_errno(context)))
    }

    /// Detaches the callbacks, disconnects and drops the reference. Only
    /// `PulseConnection` calls this, once per context.
    static func release(_ context: OpaquePointer) {
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
    }

    // MARK: Peak-detect record stream

    /// A stereo float stream of `rateHertz` frames per second. With
    /// `PA_STREAM_PEAK_DETECT` the server resamples with its "peaks" method,
    /// so each frame holds the largest |sample| of each channel over 1/rate s.
    static func makePeakStream(_ context: OpaquePointer, name: String, rateHertz: Int) -> OpaquePointer? {
        var spec = pa_sample_spec(format: tiltd_pa_sample_float32ne(), rate: UInt32(rateHertz), channels: 2)
        var map = pa_channel_map()
        pa_channel_map_init_stereo(&map)
        return pa_stream_new(context, name, &spec, &map)
    }

    static func onStateChange(stream: OpaquePointer, _ callback: PulseCallback<Void>) {
        pa_stream_set_state_callback(stream, { _, userdata in
            PulseCallback<Void>.unretained(userdata).body(())
        }, callback.opaque)
    }

    static func onReadable(stream: OpaquePointer, _ callback: PulseCallback<Void>) {
        pa_stream_set_read_callback(stream, { _, _, userdata in
            PulseCallback<Void>.unretained(userdata).body(())
        }, callback.opaque)
    }

    /// Connects the stream to `source` (nil: the default output's monitor)
    /// as pavucontrol's meters do: peak detection, never moved to another
    /// source, latency adjusted so the server sends each `fragmentBytes`
    /// at once, and (on monitors) without keeping the sink from suspending.
    static func connectRecord(stream: OpaquePointer, source: String?, isMonitor: Bool,
                              fragmentBytes: Int) -> Int32 {
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                                        minreq: UInt32.max, fragsize: UInt32(fragmentBytes))
        var flags = PA_STREAM_PEAK_DETECT.rawValue | PA_STREAM_DONT_MOVE.rawValue
            | PA_STREAM_ADJUST_LATENCY.rawValue
        if isMonitor { flags |= PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue }
        return pa_stream_connect_record(stream, source ?? "@DEFAULT_MONITOR@", &attributes,
                                        pa_stream_flags_t(rawValue: flags))
    }

    static func state(stream: OpaquePointer) -> PulseContextState {
        switch pa_stream_get_state(stream) {
        case PA_STREAM_READY: return .ready
        case PA_STREAM_FAILED: return .failed
        case PA_STREAM_TERMINATED: return .terminated
        default: return .connecting
        }
    }

    /// Hands every complete float in the stream's pending fragments to
    /// `body`, dropping holes; returns false when peeking failed.
    /// The C functions are `pa_stream_peek` and `pa_stream_drop`.
    static func readFloats(stream: OpaquePointer, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Bool {
        while true {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) == 0 else { return false }
            if bytes == 0 { return true }
            if let data {
                body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self),
                                         count: bytes / MemoryLayout<Float>.size))
            }
            pa_stream_drop(stream)
        }
    }

    /// Detaches the callbacks, disconnects and drops the reference.
    static func release(stream: OpaquePointer) {
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }

    // MARK: Server, sinks, volume

    /// 100 % volume in libpulse's units (`PA_VOLUME_NORM`).
    static var normalVolume: UInt32 { tiltd_pa_volume_norm() }

    /// Asks for a sink's volume by name (or "@DEFAULT_SINK@").
    static func sinkVolume(_ context: OpaquePointer, sink: String, _ completion: @escaping (PulseSinkInfo?) -> Void) {
        let callback = PulseCallback<PulseSinkInfo?>(completion)
        let operation = pa_context_get_sink_info_by_name(context, sink, { _, info, _, userdata in
            // Called once per matching sink, then once with info = nil at the
            // end (or on error): only that last call reports and releases.
            guard let info else {
                let callback = PulseCallback<PulseSinkInfo?>.retained(userdata)
                callback.body(callback.pending ?? nil)
                return
            }
            var volume = info.pointee.volume
            let values = withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: UInt32.self)) }
            PulseCallback<PulseSinkInfo?>.unretained(userdata).pending = PulseSinkInfo(
                name: String(cString: info.pointee.name), index: info.pointee.index,
                channelVolumes: Array(values.prefix(Int(volume.channels))), muted: info.pointee.mute != 0)
        }, callback.retainedOpaque)
        finish(operation, callback, failure: nil)
    }

    /// Sets every channel of `sink` to `channelVolumes` (libpulse units).
    static func setSinkVolume(_ context: OpaquePointer, sink: String, channelVolumes: [UInt32],
                              _ completion: @escaping (Bool) -> Void) {
        var volume = pa_cvolume()
        volume.channels = UInt8(min(channelVolumes.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let slots = raw.bindMemory(to: UInt32.self)
            for (index, value) in channelVolumes.prefix(slots.count).enumerated() { slots[index] = value }
        }
        let callback = PulseCallback<Bool>(completion)
        let operation = pa_context_set_sink_volume_by_name(context, sink, &volume, { _, success, userdata in
            PulseCallback<Bool>.retained(userdata).body(success != 0)
        }, callback.retainedOpaque)
        finish(operation, callback, failure: false)
    }

    /// Calls `callback` for every sink or server change (new default sink,
    /// volume changed elsewhere); the owner keeps `callback` alive.
    static func subscribeToSinks(_ context: OpaquePointer, _ callback: PulseCallback<Void>,
                                 _ completion: @escaping (Bool) -> Void) {
        pa_context_set_subscribe_callback(context, { _, _, _, userdata in
            PulseCallback<Void>.unretained(userdata).body(())
        }, callback.opaque)
        let done = PulseCallback<Bool>(completion)
        let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
        let operation = pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), { _, success, userdata in
            PulseCallback<Bool>.retained(userdata).body(success != 0)
        }, done.retainedOpaque)
        finish(operation, done, failure: false)
    }

    /// Drops the operation's reference; when libpulse could not start it,
    /// releases the retained callback and reports `failure` at once.
    private static func finish<Value>(_ operation: OpaquePointer?, _ callback: PulseCallback<Value>,
                                      failure: Value) {
        if let operation { pa_operation_unref(operation); return }
        Unmanaged.passUnretained(callback).release()
        callback.body(failure)
    }
}
