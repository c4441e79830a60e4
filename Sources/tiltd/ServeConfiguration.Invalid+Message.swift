import Commands
import Motion
import Serve
import Web
import Wording

extension ServeConfiguration.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .hostNotAnIPAddress(let host): WebServerError.badHost(host).message
        case .layerSize(let size, let range):
            "\(.size) \(size): layer images are \(range.lowerBound) to \(range.upperBound) pixels"
        case .maxStreams(let streams, let range): "\(.maxStreams) \(streams): give \(range.lowerBound) to \(range.upperBound)"
        case .maxStreamsPerClient(let perClient, let maxStreams):
            "\(.maxStreamsPerClient) \(perClient): give 1 to \(.maxStreams) (\(maxStreams))"
        case .maxConnections(let connections, let range):
            "\(.maxConnections) \(connections): give \(range.lowerBound) to \(range.upperBound)"
        case .allowedHost(let name):
            "\(.allowHost) \(name): give a host name or address without scheme or path, e.g. \(.allowHost) mybox.local"
        case .limitSeconds(let seconds, let range):
            "\(.recordLimit) \(seconds): give \(Int(range.lowerBound)) to \(Int(range.upperBound)) seconds"
        case .keep(let keep, let range): "\(.recordKeep) \(keep): give \(range.lowerBound) to \(range.upperBound) recordings"
        case .maximumMebibytes(let mebibytes, let range):
            "\(.recordMaxMib) \(mebibytes): give \(range.lowerBound) to \(range.upperBound) MiB"
        }
    }
}

extension ServeSlider.Settings.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .liveLevelsAndFile(let file):
            "\(.levels) meters live audio and \(.levelsFile) \(file) replays a file: give one or the other"
        case .emptyFileName: "\(.levelsFile) needs a file name (FILE.wav or FILE.jsonl)"
        case .sourceWithoutLiveLevels(let source): "\(.levelsSource) \(source) chooses what \(.levels) meters: add \(.levels)"
        case .emptySourceName: "\(.levelsSource) needs a source name (see `pactl list short sources`)"
        }
    }
}
