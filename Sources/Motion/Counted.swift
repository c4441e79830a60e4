/// "1 state", "2 states": a count with its noun in the right number, so
/// messages read as sentences ("from 1 states", "gap(s)" did not).
public enum Counted {
    /// `count` and `noun`, adding "s" (or `plural`) unless `count` is 1.
    public static func text(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
