import Motion

extension NeutralPoseSetting {
    /// Parses `--neutral` (`Setting.neutral`): `auto`, or `ROLL,PITCH` in radians (spaces
    /// around either number allowed); nil for anything else, or a number
    /// that is not finite. `Double(String)` ignores the locale, so "0,1.5"
    /// is roll 0, pitch 1.5 everywhere.
    public init?(argument text: String) {
        if text == "auto" {
            self = .auto
            return
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Double? {
            Double(String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()))
        }
        guard parts.count == 2, let roll = number(parts[0]), let pitch = number(parts[1]),
              roll.isFinite, pitch.isFinite else { return nil }
        self = .fixed(roll: roll, pitch: pitch)
    }
}
