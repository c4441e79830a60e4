import Levels
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
        ("", false, nil, nil, .emptyFileName),
        ("a.wav", false, "mic", nil, .fileAndLiveSource),
        ("a.wav", false, nil, "unix:/p", .fileAndLiveSource),
        (nil, true, nil, nil, .realTimeWithoutFile),
        (nil, false, "", nil, .emptySourceName),
    ] as [(String?, Bool, String?, String?, LevelsStream.Source.Invalid)])
    func conflictsAreNamed(file: String?, realTime: Bool, source: String?, server: String?,
                           invalid: LevelsStream.Source.Invalid) {
        #expect(throws: invalid) {
            try LevelsStream.Source(levelsFile: file, realTime: realTime, source: source, server: server)
        }
    }
}
