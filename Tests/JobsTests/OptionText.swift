import Jobs
import Motion
import RunCommandLine

/// What the command line shows for a job's refusal or message: its
/// settings spelt as their options (`Setting.flag`).
func optionText(_ value: Any) -> String {
    switch value {
    case let error as RenderError: error.message.text(naming: \.flag)
    case let error as SettingError: error.message.text(naming: \.flag)
    case let message as SettingMessage: message.text(naming: \.flag)
    default: "\(value)"
    }
}
