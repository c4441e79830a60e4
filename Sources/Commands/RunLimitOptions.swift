import ArgumentParser
import SamplePath

/// `--count` and `--duration`: when `run` and `record` stop on their own.
public struct RunLimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many samples read from the device.", valueName: "n"))
    public var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds.", valueName: "s"))
    public var duration: Double?

    public init() {}

    public func validate() throws { try validating { try DeviceRunLimits.check(count: count, duration: duration) } }
}
