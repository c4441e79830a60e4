import Levels
import Motion

extension LevelsStream.Source {
    /// The source `tiltd levels`' options describe, checked: a file
    /// (`Setting.levelsFile`, paced with `Setting.realtime`) or live levels
    /// (`Setting.source`, `Setting.server`), never both.
    ///
    /// - Throws: `SettingError` naming the option to drop or fill in.
    public init(levelsFile: String?, realTime: Bool, source: String?, server: String?) throws(SettingError) {
        if let levelsFile {
            if levelsFile.isEmpty { throw SettingError("\(.levelsFile) needs a file name (FILE.wav or FILE.jsonl)") }
            if source != nil || server != nil {
                throw SettingError("\(.levelsFile) replays a file; \(.source) and \(.server) are for live levels, drop them")
            }
            self = .file(path: levelsFile, realTime: realTime)
            return
        }
        if realTime { throw SettingError("\(.realtime) paces a \(.levelsFile); live levels are real time already") }
        if let source, source.isEmpty { throw SettingError("\(.source) needs a source name (see `pactl list short sources`)") }
        self = .live(source: source, server: server)
    }
}
