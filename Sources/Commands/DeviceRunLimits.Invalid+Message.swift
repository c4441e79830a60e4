import Motion
import SamplePath
import Wording

extension DeviceRunLimits.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .count(let count): "\(.count) \(count): give a number of samples above 0"
        case .duration(let duration): "\(.duration) \(duration): give a number of seconds above 0"
        }
    }
}
