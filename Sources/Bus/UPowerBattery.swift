import Glibc
import Platform

/// The machine's battery as UPower shows it on the system bus (the
/// composite `DisplayDevice`): what the DSU server's slot 0 reports.
public struct UPowerBattery: Sendable, Equatable {
    public static let busName = "org.freedesktop.UPower"
    public static let objectPath = "/org/freedesktop/UPower/devices/DisplayDevice"
    public static let interface = "org.freedesktop.UPower.Device"

    /// The charge, 0–100 %.
    public var percentage: Double
    /// UPower's `State`: 1 charging, 2 discharging, 3 empty, 4 fully
    /// charged, 5 and 6 pending charge and discharge, 0 unknown.
    public var state: UInt32

    public var isCharging: Bool { state == 1 }
    public var isFullyCharged: Bool { state == 4 }

    /// The battery the device's properties describe (`IsPresent`,
    /// `Percentage`, `State`); nil when none is present.
    public init?(properties: [String: BusValue]) {
        guard properties["IsPresent"] == .bool(true), case .double(let percentage)? = properties["Percentage"],
              percentage.isFinite else { return nil }
        self.percentage = percentage
        if case .uint64(let raw)? = properties["State"] { state = UInt32(clamping: raw) } else { state = 0 }
    }

    /// Reads the battery once (blocks up to sd-bus's call timeout): nil when
    /// the bus or UPower is absent or the machine has no battery.
    public static func read(bus address: BusAddress = .system) -> UPowerBattery? {
        guard let bus = try? SDBus(address),
              let properties = try? bus.call(destination: busName, path: objectPath,
                                             interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                             argument: interface)
        else { return nil }
        return UPowerBattery(properties: properties)
    }

    /// Reads the battery now and then every `intervalSeconds` on a thread of
    /// its own (never a sample's or a task's), handing each reading to
    /// `update` until it returns false; returns the thread's end.
    @discardableResult public static func watch(bus address: BusAddress = .system, intervalSeconds: UInt32 = 60,
                                                _ update: @escaping @Sendable (UPowerBattery?) -> Bool) -> Latch {
        DetachedThread.start(name: "tiltd.upower") {
            while update(read(bus: address)) { sleep(intervalSeconds) }
        }
    }
}
