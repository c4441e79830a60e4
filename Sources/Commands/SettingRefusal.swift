import Motion
import Wording

/// A library's typed refusal of a value, worded by the command line: the
/// library says what is wrong in its own terms; the conformance says it as
/// one line naming the options (`message`), which is the error's text
/// wherever it is shown (`validating`, ArgumentParser's value errors,
/// main's error line).
public protocol SettingRefusal: Error, CustomStringConvertible {
    /// The refusal as the command line words it, naming settings.
    var message: SettingMessage { get }
}

extension SettingRefusal {
    public var description: String { message.description }
}
