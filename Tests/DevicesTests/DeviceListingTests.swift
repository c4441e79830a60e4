@testable import Devices
import Foundation
import Motion
import Testing

/// `tiltd list`'s model in process: which device is marked, what is said
/// when none can be used, and the text of each entry (its JSON, which
/// needs Foundation and so lives in the executable, is checked on `tiltd
/// list --json`'s output: DeviceListTests, PadDeviceTests).
@Suite(.timeLimit(.minutes(2))) struct DeviceListingTests {
    static func accelerometer(_ id: String, label: String) -> AccelerometerInfo {
        AccelerometerInfo(id: id, name: "accel_3d", label: label, udevLocation: nil, uri: "local:",
                          scale: SIMD3(repeating: 0.5), offset: .zero, scaleSource: "in_accel_scale",
                          offsetSource: "default 0", mountMatrix: .identity, mountMatrixSource: .identity,
                          samplingFrequencyHertz: 100, availableFrequencies: nil,
                          availableFrequenciesText: "50 100", bufferCapable: true, hasTimestamp: true,
                          currentTrigger: nil, triggerCandidate: "accel_3d-dev0", timestampClock: nil)
    }

    static let pad = MotionPadInfo(
        node: "/dev/input/event7", name: "Wireless Controller Motion Sensors", vendor: 0x054c, product: 0x09cc,
        bus: 3, accelerometerAxes: [EvdevAxis(code: 0, minimum: -32768, maximum: 32767, fuzz: 0, flat: 0,
                                              resolution: 8192)],
        gyroscopeAxes: [], hasTimestamp: true)

    @Test func theDisplayAccelerometerIsMarkedNotTheBase() throws {
        let listing = DeviceListing(accelerometers: [Self.accelerometer("iio:device0", label: "accel-base"),
                                                     Self.accelerometer("iio:device1", label: "accel-display")],
                                    pads: [Self.pad], uri: "local:", deviceCount: 2)
        #expect(listing.chosenAccelerometer == 1 && listing.chosenPad == nil && listing.problem == nil)
        let lines = listing.text().split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("* ") } == "* iio:device1  accel_3d  label accel-display  location display")
        #expect(lines.contains("    buffer        yes, trigger accel_3d-dev0 (set when capturing), timestamps"))
        #expect(lines.contains("  /dev/input/event7  Wireless Controller Motion Sensors"))
        // The budget in force, moving, at rest and settled, at the device's 100 Hz.
        let latency = try #require(lines.first { $0.hasPrefix("    latency       ") })
        #expect(latency.hasPrefix("    latency       16 ms ("), "\(latency)")
        #expect(latency.hasSuffix("1–2 scans a wake-up at 100 Hz, 25 scans at rest, 50 scans after 10 s still"),
                "\(latency)")
    }

    @Test func aPadStandsInWhenOnlyTheBaseHasAnAccelerometerAndThatIsSaid() {
        let listing = DeviceListing(accelerometers: [Self.accelerometer("iio:device0", label: "accel-base")],
                                    pads: [Self.pad], uri: "local:", deviceCount: 1)
        #expect(listing.chosenAccelerometer == nil && listing.chosenPad == 0)
        #expect(listing.problem?.contains("iio:device0") == true)
        #expect(listing.text().contains("* /dev/input/event7"))
    }

    @Test func aPadAloneIsChosenSilentlyAndNothingAtAllIsAProblem() {
        let padOnly = DeviceListing(accelerometers: [], pads: [Self.pad], uri: "local:", deviceCount: 0)
        #expect(padOnly.chosenPad == 0 && padOnly.problem == nil && !padOnly.isEmpty)
        let nothing = DeviceListing(accelerometers: [], pads: [], uri: "local:", deviceCount: 0)
        #expect(nothing.isEmpty && nothing.problem != nil && nothing.text().isEmpty)
    }
}
