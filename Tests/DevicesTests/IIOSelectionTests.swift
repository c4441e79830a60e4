@testable import Devices
import Motion
import Testing
import Wording

@Suite(.timeLimit(.minutes(2))) struct IIOSelectionTests {
    static func device(_ id: String, name: String? = nil, label: String? = nil,
                       udev: String? = nil) -> AccelerometerInfo {
        AccelerometerInfo(id: id, name: name, label: label, udevLocation: udev, uri: "local:",
                          scale: SIMD3(repeating: 1), offset: .zero, scaleSource: "in_accel_scale",
                          offsetSource: "default 0", mountMatrix: .identity, mountMatrixSource: .identity,
                          samplingFrequencyHertz: nil, availableFrequencies: nil,
                          availableFrequenciesText: nil, bufferCapable: false, hasTimestamp: false,
                          currentTrigger: nil, triggerCandidate: nil, timestampClock: nil)
    }

    @Test func locationComesFromUdevBeforeTheLabel() {
        #expect(Self.device("iio:device0", label: "accel-display").location == "display")
        #expect(Self.device("iio:device0", label: "accel-display", udev: "base").location == "base")
        #expect(Self.device("iio:device0", label: "gyro").location == nil)
        #expect(Self.device("iio:device0").location == nil)
    }

    @Test func prefersTheDisplayAndNeverPicksTheBaseUnasked() throws {
        let base = Self.device("iio:device0", label: "accel-base")
        let display = Self.device("iio:device1", label: "accel-display")
        let plain = Self.device("iio:device2", name: "lis3dh")
        let selector = AccelerometerSelector()
        #expect(try selector.choose(from: [base, display, plain], uri: "local:", deviceCount: 3) == 1)
        #expect(try selector.choose(from: [base, plain], uri: "local:", deviceCount: 2) == 1)
        #expect(throws: AccelerometerSelectionError.onlyBase(uri: "local:", ids: ["iio:device0"])) {
            try selector.choose(from: [base], uri: "local:", deviceCount: 1)
        }
        let udevBase = Self.device("iio:device3", label: "accel-display", udev: "base")
        #expect(try selector.choose(from: [udevBase, plain], uri: "local:", deviceCount: 2) == 1)
    }

    @Test func deviceOptionMatchesIdNameLabelOrLocation() throws {
        let list = [Self.device("iio:device0", name: "accel_3d", label: "accel-base"),
                    Self.device("iio:device1", name: "accel_3d", label: "accel-display")]
        #expect(try AccelerometerSelector(query: "iio:device0").choose(from: list, uri: "local:", deviceCount: 2) == 0)
        #expect(try AccelerometerSelector(query: "base").choose(from: list, uri: "local:", deviceCount: 2) == 0)
        #expect(try AccelerometerSelector(query: "accel-display").choose(from: list, uri: "local:", deviceCount: 2) == 1)
        // A name shared by both: the display one.
        #expect(try AccelerometerSelector(query: "accel_3d").choose(from: list, uri: "local:", deviceCount: 2) == 1)
    }

    @Test func explainsWhyNothingWasChosen() {
        let none = AccelerometerSelectionError.noAccelerometer(uri: "local:", deviceCount: 0)
        #expect(none.description.contains("no IIO devices on local:"))
        let others = AccelerometerSelectionError.noAccelerometer(uri: "ip:pi", deviceCount: 2)
        #expect(others.description.contains("none of the 2 IIO devices"))
        do {
            _ = try AccelerometerSelector(query: "iio:device9")
                .choose(from: [Self.device("iio:device0", name: "accel_3d")], uri: "local:", deviceCount: 1)
            Issue.record("expected no match")
        } catch {
            #expect("\(error)".contains("\(Setting.device) iio:device9"))
            #expect("\(error)".contains("available: iio:device0 accel_3d"))
        }
        let base = AccelerometerSelectionError.onlyBase(uri: "local:", ids: ["iio:device4"])
        #expect(base.description.contains("\(Setting.device) iio:device4"))
    }
}
