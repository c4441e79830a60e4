import Commands
import Controls
import Motion
import Wording

extension ControlStillError: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .points(let points, let dimension, let minimum, let maximum):
            let number = ControlStill.numberText
            return "\(dimension.setting) must be \(number(minimum))…\(number(maximum)) points, got \(number(points))"
        case .value(let value): return "\(.value) must be 0…1, got \(value)"
        case .levels(let levels): return "\(.levels) must be two levels 0…1 as L,R such as 0.8,0.6, got '\(levels)'"
        case .angles: return "\(.roll) and \(.pitch) must be finite radians"
        case .colour(let colour):
            return "\(.color) must be R,G,B,A (or R,G,B) with each part 0…1 such as 0.2,0.4,0.6,1, got '\(colour)'"
        case .durationSeconds(let seconds):
            return "\(.duration) must be more than 0 and at most 86400 seconds, got \(seconds)"
        case .holds(let holds): return "\(.holds) must be seconds ≥ 0 separated by commas such as 2,3.5, got '\(holds)'"
        }
    }
}

extension ControlStillError.Dimension {
    /// The option of `tiltd draw` that gives this size.
    var setting: Setting {
        switch self {
        case .width: .width
        case .height: .height
        case .trackHeight: .trackHeight
        case .size: .size
        }
    }
}
