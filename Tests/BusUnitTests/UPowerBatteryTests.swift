import Bus
import Testing

/// UPower's DisplayDevice properties as the DSU server's battery reads them, without a bus.
@Suite(.timeLimit(.minutes(2))) struct UPowerBatteryTests {
    @Test func aPresentBatteryGivesItsPercentageAndState() {
        let battery = UPowerBattery(properties: ["IsPresent": .bool(true), "Percentage": .double(42.5),
                                                 "State": .uint64(1), "Model": .string("ignored")])
        #expect(battery?.percentage == 42.5)
        #expect(battery?.isCharging == true && battery?.isFullyCharged == false)
        let full = UPowerBattery(properties: ["IsPresent": .bool(true), "Percentage": .double(100), "State": .uint64(4)])
        #expect(full?.isFullyCharged == true && full?.isCharging == false)
    }

    @Test func noBatteryOrNoPercentageIsNone() {
        #expect(UPowerBattery(properties: [:]) == nil)
        #expect(UPowerBattery(properties: ["IsPresent": .bool(false), "Percentage": .double(0),
                                           "State": .uint64(0)]) == nil)
        #expect(UPowerBattery(properties: ["IsPresent": .bool(true), "State": .uint64(2)]) == nil)
        #expect(UPowerBattery(properties: ["IsPresent": .bool(true), "Percentage": .double(.nan)]) == nil)
    }

    @Test func anUnknownOrMissingStateIsNeitherChargingNorCharged() {
        for properties: [String: BusValue] in [["IsPresent": .bool(true), "Percentage": .double(5), "State": .uint64(99)],
                                               ["IsPresent": .bool(true), "Percentage": .double(5)]] {
            let battery = UPowerBattery(properties: properties)
            #expect(battery?.percentage == 5 && battery?.isCharging == false && battery?.isFullyCharged == false)
        }
    }

    @Test func aBusWithoutUPowerReadsAsNone() {
        #expect(UPowerBattery.read(bus: .address("unix:path=/nonexistent/tiltd-test-bus")) == nil)
    }
}
