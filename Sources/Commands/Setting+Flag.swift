import Motion
import Wording

extension Setting {
    /// The option that gives this setting: its field name in kebab case
    /// after `--`, as ArgumentParser spells an option's long name.
    public var flag: String {
        "--" + rawValue.flatMap { $0.isUppercase ? ["-"] + $0.lowercased() : [$0] }
    }
}
