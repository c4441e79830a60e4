import ArgumentParser
import Streaming

/// Checks of `--count` and `--duration`, shared by `run` and `record`.
enum DeviceRunLimits {
    static func validate(count: Int?, duration: Double?) throws {
        if let count, count <= 0 {
            throw ValidationError("--count \(count): give a number of samples above 0")
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration \(duration): give a number of seconds above 0")
        }
    }
}
