import Commands
import Levels
import Motion
import Wording

extension PulseError: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case let .noServer(server, reason):
            "no PulseAudio server at \(server) (\(reason)): start one with `pulseaudio --start` "
                + "(PipeWire desktops: `systemctl --user start pipewire-pulse`) or set PULSE_SERVER to a running one"
        case let .noSource(source, server, reason):
            "PulseAudio at \(server) cannot record from source \(source) (\(reason)): "
                + "list sources with `pactl list short sources` and pass one with \(.source)"
        case let .noDefaultSink(server):
            "PulseAudio at \(server) has no default sink: load one (`pactl load-module module-null-sink`) "
                + "or choose one with `pactl set-default-sink`"
        case let .requestFailed(operation, server, reason):
            "PulseAudio at \(server) failed to \(operation) (\(reason)); check the server is still running"
        case .mainloopUnavailable:
            "libpulse could not start its mainloop thread; check the process's thread and memory limits"
        }
    }
}
