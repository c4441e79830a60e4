import Bus
import DSU

extension DSUServer {
    /// Starts a DSU server on `address` whose controller reports the
    /// machine's battery as UPower reads it (none without UPower).
    ///
    /// - Parameter onClientCountChange: the number of DSU clients whenever it changes.
    /// - Throws: the server's bind error.
    static func startReportingBattery(on address: DSUAddress,
                                      onClientCountChange: @escaping @Sendable (Int) -> Void = { _ in }) async throws
        -> DSUServer {
        let server = try await DSUServer(address: address, onClientCountChange: onClientCountChange)
        UPowerBattery.watch { [weak server] battery in
            server?.setBattery(battery.map(DSUController.Battery.init) ?? .notApplicable) ?? false
        }
        return server
    }
}

extension DSUController.Battery {
    /// Grades UPower's reading of the machine's battery.
    init(_ battery: UPowerBattery) {
        self.init(percentage: battery.percentage, charging: battery.isCharging,
                  fullyCharged: battery.isFullyCharged)
    }
}
