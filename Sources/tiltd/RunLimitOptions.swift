import ArgumentParser
import Streaming

/// `--count` and `--duration`: when `run` and `record` stop on their own.
struct RunLimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many samples read from the device.", valueName: "n"))
    var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds.", valueName: "s"))
    var duration: Double?

    func validate() throws { try validating { try DeviceRunLimits.check(count: count, duration: duration) } }
}
