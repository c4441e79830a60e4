import ArgumentParser
import Motion
import RunCommandLine
import Testing
@testable import tiltd

/// Libraries name settings by type (`Setting`); the command line spells
/// each as its option, in the same bytes the messages always had.
@Suite struct SettingFlagTests {
    @Test func settingsAreSpeltAsTheirOptions() {
        #expect(Setting.knobRadius.flag == "--knob-radius")
        #expect(Setting.maxStreamsPerClient.flag == "--max-streams-per-client")
        let message: SettingMessage = "\(.contactSheetFrames) and \(.columns) shape a contact sheet: give \(.contactSheet) FILE.png too"
        #expect(message.text(naming: \.flag)
                    == "--contact-sheet-frames and --columns shape a contact sheet: give --contact-sheet FILE.png too")
    }

    /// A setting spelt as an option no command takes would send the reader
    /// to a flag that does not exist.
    @Test func everySettingIsAnOptionOfSomeCommand() {
        func commands(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
            [command] + command.configuration.subcommands.flatMap(commands)
        }
        let help = commands(Tiltd.self).map { Tiltd.helpMessage(for: $0, includeHidden: true) }.joined()
        for setting in Setting.allCases {
            #expect(help.contains(setting.flag + " ") || help.contains(setting.flag + "\n"), "\(setting.flag)")
        }
    }
}
