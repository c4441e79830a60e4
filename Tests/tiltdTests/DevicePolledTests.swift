import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DevicePolledTests {
    /// iio-sensor-proxy's vectors (SPEC §5): one device per vector.
    @Test(arguments: [("iio:device0", "normal"), ("iio:device1", "right-up"),
                      ("iio:device2", "left-up"), ("iio:device3", "bottom-up")])
    func orientationVectors(device: String, expected: String) throws {
        let result = try DeviceTestSupport.tiltd(["run", "--device", device, "--count", "2", "--no-gate"],
                                                 devices: ["vectors.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(DeviceTestSupport.orientations(result.stdout) == [expected, expected])
        #expect(result.stderr.contains("poll mode at 50 Hz"))
    }

    @Test func ondaV975ReadsNormalThroughItsUdevMatrix() throws {
        let result = try DeviceTestSupport.tiltd(["run", "--count", "3", "--no-gate"], devices: ["onda-v975.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(DeviceTestSupport.orientations(result.stdout) == ["normal", "normal", "normal"])
        // Upright: pitch near +π/2 (reading ≈ (−0.25, −10.02, 0.10) m/s²).
        let pitch = try #require(DeviceTestSupport.states(result.stdout).first?["pitch"] as? Double)
        #expect(abs(pitch - 1.544) < 0.01)
    }

    @Test func mountMatrixOptionOverridesTheDevice() throws {
        // Without the Onda quirk its x axis points up: left-up.
        let identity = try DeviceTestSupport.tiltd(
            ["run", "--count", "1", "--mount-matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1"], devices: ["onda-v975.umockdev"])
        #expect(DeviceTestSupport.orientations(identity.stdout) == ["left-up"])
        // The asymmetric test matrix turns (0, −g, 0) into (g, 0, 0): left-up.
        let turned = try DeviceTestSupport.tiltd(
            ["run", "--device", "iio:device0", "--count", "1", "--mount-matrix", "0, -1, 0; 1, 0, 0; 0, 0, 1"],
            devices: ["vectors.umockdev"])
        #expect(DeviceTestSupport.orientations(turned.stdout) == ["left-up"])
    }

    @Test func rateBelow10HzIsRaisedTo12() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let command = "\(TiltdProcess.binary.path) run --count 2 >/dev/null && "
            + "cat /sys/bus/iio/devices/iio:device0/sampling_frequency"
        let result = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--device",
                                                DeviceTestSupport.fixture("onda-v975.umockdev").path,
                                                "--", "/bin/sh", "-c", command])
        #expect(result.status == 0, "\(result.stderr)")
        // libiio writes the terminating NUL too (the kernel ignores it; umockdev keeps it).
        #expect(result.stdout.filter { $0 != "\0" }.trimmingCharacters(in: .whitespacesAndNewlines) == "12")
        #expect(result.stderr.contains("from 5.2 Hz to 12 Hz"))
        #expect(result.stderr.contains("poll mode at 12 Hz"))
    }

    @Test func displayIsChosenOverBaseUnlessAsked() throws {
        let chosen = try DeviceTestSupport.tiltd(["run", "--count", "1"], devices: ["display-base.umockdev"])
        #expect(chosen.stderr.contains("reading iio:device1 (accel_display)"))
        #expect(DeviceTestSupport.orientations(chosen.stdout) == ["normal"])
        let base = try DeviceTestSupport.tiltd(["run", "--count", "1", "--device", "base"],
                                               devices: ["display-base.umockdev"])
        #expect(base.stderr.contains("reading iio:device0 (accel_base)"))
        #expect(DeviceTestSupport.orientations(base.stdout) == ["left-up"])
    }

    @Test func frenchLocaleReadsTheSameNumbers() throws {
        try DeviceTestSupport.requireFrenchLocale()
        let arguments = ["run", "--count", "2", "--no-gate", "--device", "iio:device1"]
        let c = try DeviceTestSupport.tiltd(arguments, devices: ["vectors.umockdev"], environment: ["LC_ALL": "C"])
        let french = try DeviceTestSupport.tiltd(arguments, devices: ["vectors.umockdev"],
                                                 environment: ["LC_ALL": "fr_FR.UTF-8"])
        #expect(french.status == 0, "\(french.stderr)")
        let strip: ([String: Any]) -> [Double] = { [$0["roll"] as? Double ?? .nan, $0["pitch"] as? Double ?? .nan] }
        #expect(DeviceTestSupport.states(french.stdout).map(strip) == DeviceTestSupport.states(c.stdout).map(strip))
        #expect(DeviceTestSupport.orientations(french.stdout) == ["right-up", "right-up"])
        let list = try DeviceTestSupport.tiltd(["list", "--json"], devices: ["onda-v975.umockdev"],
                                               environment: ["LC_ALL": "fr_FR.UTF-8"])
        #expect(list.stdout.contains("0.019163"))
        #expect(list.stdout.contains("5.2"))
    }

    @Test func runCountPrintsExactlyThatManyStatesInTheSchema() throws {
        let result = try DeviceTestSupport.tiltd(["run", "--count", "4", "--no-gate", "--device", "iio:device2"],
                                                 devices: ["vectors.umockdev"])
        #expect(result.status == 0)
        let states = DeviceTestSupport.states(result.stdout)
        #expect(states.count == 4)
        for state in states {
            #expect(Set(state.keys) == ["t", "roll", "pitch", "orientation", "shine"])
            #expect((state["shine"] as? [[String: Any]])?.count == 2)
        }
        // Polled timestamps are CLOCK_MONOTONIC and increase.
        let times = DeviceTestSupport.times(result.stdout)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Reads are scheduled on absolute deadlines (start + k·period), so a run
    /// of N samples at 50 Hz can never span less than (N − 1) periods, less
    /// one period of slack for a late first read; the upper bound is generous.
    @Test func pollingKeepsToTheRateWithoutDrift() throws {
        let result = try DeviceTestSupport.tiltd(["run", "--count", "26", "--no-gate", "--device", "iio:device0"],
                                                 devices: ["vectors.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        let times = DeviceTestSupport.times(result.stdout)
        #expect(times.count == 26)
        let span = (times.last ?? 0) - (times.first ?? 0)
        #expect(span >= 24 * 0.020 - 1e-6, "span \(span) s")
        #expect(span < 10, "span \(span) s")
    }
}
