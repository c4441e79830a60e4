import Commands
import Levels
import Motion
import Wording

extension LevelsStream.Source.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .emptyFileName: "\(.levelsFile) needs a file name (FILE.wav or FILE.jsonl)"
        case .fileAndLiveSource: "\(.levelsFile) replays a file; \(.source) and \(.server) are for live levels, drop them"
        case .realTimeWithoutFile: "\(.realtime) paces a \(.levelsFile); live levels are real time already"
        case .emptySourceName: "\(.source) needs a source name (see `pactl list short sources`)"
        }
    }
}
