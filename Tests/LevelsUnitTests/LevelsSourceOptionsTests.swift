import Levels
import Motion
import Testing

/// `tiltd levels`' source options, checked: a file or live levels, never both.
@Suite(.timeLimit(.minutes(2))) struct LevelsSourceOptionsTests {
    @Test func aFileOrLiveLevels() throws {
        guard case .file(path: "a.wav", realTime: true) = try LevelsStream.Source(
            levelsFile: "a.wav", realTime: true, source: nil, server: nil) else {
            Issue.record("expected the file")
            return
        }
        guard case .live(source: "mic", server: "unix:/run/p") = try LevelsStream.Source(
            levelsFile: nil, realTime: false, source: "mic", server: "unix:/run/p") else {
            Issue.record("expected live levels")
            return
        }
    }

    @Test(arguments: [
        ("", false, nil, nil, "\(.levelsFile) needs a file name (FILE.wav or FILE.jsonl)"),
        ("a.wav", false, "mic", nil, "\(.levelsFile) replays a file; \(.source) and \(.server) are for live levels, drop them"),
        ("a.wav", false, nil, "unix:/p", "\(.levelsFile) replays a file; \(.source) and \(.server) are for live levels, drop them"),
        (nil, true, nil, nil, "\(.realtime) paces a \(.levelsFile); live levels are real time already"),
        (nil, false, "", nil, "\(.source) needs a source name (see `pactl list short sources`)"),
    ] as [(String?, Bool, String?, String?, SettingMessage)])
    func conflictsAreNamed(file: String?, realTime: Bool, source: String?, server: String?, message: SettingMessage) {
        #expect(throws: SettingError(message)) {
            try LevelsStream.Source(levelsFile: file, realTime: realTime, source: source, server: server)
        }
    }
}
