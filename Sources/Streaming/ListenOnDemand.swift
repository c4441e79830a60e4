import Logging

/// `Setting.onDemand`: keeps the accelerometer open only while at least one
/// consumer (a socket client, a D-Bus claim: `DemandCount`) wants states,
/// as iio-sensor-proxy does to save power.
///
/// `run` follows the demand's totals in a task of its own, so whoever
/// reports a count (the socket's event loop, the bus thread) never waits
/// for the device, and each step looks at the newest total: a burst of
/// joins and leaves settles to the right state.
public struct ListenOnDemand: Sendable {
    /// What to call to open and close the device.
    public struct Device: Sendable {
        public var open: @Sendable () async throws -> Void
        public var close: @Sendable () async -> Void

        public init(open: @escaping @Sendable () async throws -> Void, close: @escaping @Sendable () async -> Void) {
            self.open = open
            self.close = close
        }
    }

    private let logger: Logger
    private let releaseGrace: Duration

    /// How long the device stays open after the last client left, by default:
    /// clients that come and go in quick succession (a claim and release
    /// loop, a reconnecting client) do not power the sensor up and down
    /// each time.
    public static let defaultReleaseGraceSeconds = 2.0

    /// - Parameters:
    ///   - logger: one-line notices (opened, released, failed).
    ///   - releaseGraceSeconds: how long the last client's departure waits
    ///     before the device is closed (0: at once).
    public init(logger: Logger = TiltdLog.logger, releaseGraceSeconds: Double = defaultReleaseGraceSeconds) {
        self.logger = logger
        self.releaseGrace = .nanoseconds(Int64(releaseGraceSeconds * 1e9))
    }

    /// Opens and closes `device` as `demand` wants until the task is
    /// cancelled (the end of the run), then closes it if it is open, without
    /// waiting out the release grace.
    ///
    /// - Parameter clock: times the release grace.
    public func run<C: Clock>(_ device: Device, demand: DemandCount, clock: C) async where C.Duration == Duration {
        var seen: UInt64 = 0
        var isOpen = false
        while let report = await demand.next(after: seen) {
            seen = report.sequence
            if report.total > 0 {
                guard !isOpen else { continue }
                do {
                    try await device.open()
                    isOpen = true
                    logger.notice("a client connected: device opened")
                } catch {
                    logger.error("a client connected but the device cannot be opened: \(error); the next client will try again")
                }
            } else if isOpen, await !reported(after: seen, by: demand, within: clock) {
                await device.close()
                isOpen = false
                logger.notice("last client left: device released")
            }
        }
        if isOpen {
            await device.close()
            logger.notice("last client left: device released")
        }
    }

    /// Whether a new count comes before the release grace is over (false
    /// when the grace passes first, or the task is cancelled).
    private func reported<C: Clock>(after sequence: UInt64, by demand: DemandCount, within clock: C) async -> Bool
    where C.Duration == Duration {
        guard releaseGrace > .zero else { return false }
        let grace = releaseGrace
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await demand.next(after: sequence) != nil }
            group.addTask {
                try? await clock.sleep(for: grace)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }
}
