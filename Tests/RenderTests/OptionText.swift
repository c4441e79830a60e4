import Commands
import Motion
import Render
import Wording

/// What the command line shows for a job's refusal or message: its
/// settings spelt as their options (`Setting.flag`). The wording of the
/// library's typed refusals is `tiltd`'s (`SettingRefusal`), linked in.
func optionText(_ value: Any) -> String {
    switch value {
    case let error as SettingError: error.message.text(naming: \.flag)
    case let refusal as any SettingRefusal: refusal.message.text(naming: \.flag)
    case let message as SettingMessage: message.text(naming: \.flag)
    default: "\(value)"
    }
}
