import Commands
import Motion
import Testing
import TiltdTestSupport
import Wording

/// Libraries name settings by type (`Setting`); the command line spells
/// each as its option, in the same bytes the messages always had.
@Suite(.timeLimit(.minutes(15))) struct SettingFlagTests {
    @Test func settingsAreSpeltAsTheirOptions() {
        #expect(Setting.knobRadius.flag == "--knob-radius")
        #expect(Setting.maxStreamsPerClient.flag == "--max-streams-per-client")
        let message: SettingMessage = "\(.contactSheetFrames) and \(.columns) shape a contact sheet: give \(.contactSheet) FILE.png too"
        #expect(message.text(naming: \.flag)
                    == "--contact-sheet-frames and --columns shape a contact sheet: give --contact-sheet FILE.png too")
    }

    /// A setting spelt as an option no command takes would send the reader
    /// to a flag that does not exist: every one is in some command's help
    /// (hidden options included), as the built `tiltd` prints it.
    @Test func everySettingIsAnOptionOfSomeCommand() throws {
        func output(_ arguments: [String]) throws -> String {
            let result = try TiltdProcess.run(arguments)
            try #require(result.status == 0, "tiltd \(arguments.joined(separator: " ")): \(result.stderr)")
            return result.stdout
        }
        // A command's options with the hidden ones, and those of its
        // subcommands (`--help` lists them; the root's `--help-hidden` is
        // its default command's).
        func help(_ path: [String]) throws -> String {
            let text = try output(path + ["--help-hidden"])
            let listing = try output(path + ["--help"])
            // Subcommands: the first word of each two-space-indented line under SUBCOMMANDS.
            guard let range = listing.range(of: "SUBCOMMANDS:\n") else { return text }
            let names = listing[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !$0.isEmpty }
                .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            return try names.reduce(text) { $0 + (try help(path + [$1])) }
        }
        let all = try help([])
        #expect(all.contains("SUBCOMMANDS") && all.contains("--light-color"), "\(all.prefix(500))")
        for setting in Setting.allCases {
            #expect(all.contains(setting.flag + " ") || all.contains(setting.flag + "\n")
                        || all.contains(setting.flag + ","), "\(setting.flag)")
        }
    }
}
