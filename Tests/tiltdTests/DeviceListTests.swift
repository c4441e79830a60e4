import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceListTests {
    @Test func listsEveryAccelerometerWithItsCalibrationAndChoosesTheDisplay() throws {
        let result = try DeviceTestSupport.tiltd(["list"], devices: ["display-base.umockdev"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let base = try #require(lines.first { $0.contains("iio:device0") })
        let display = try #require(lines.first { $0.contains("iio:device1") })
        #expect(base.hasPrefix(" ") && base.contains("location base"))
        #expect(display.hasPrefix("*") && display.contains("label accel-display"))
        #expect(result.stdout.contains("0.038320312 0.038320312 0.038320312 m/s² per count (in_accel_scale)"))
        #expect(result.stdout.contains("no sampling_frequency; tiltd uses 50 Hz"))
    }

    @Test func jsonShowsSourcesRatesAndBuffer() throws {
        let onda = try DeviceTestSupport.tiltd(["list", "--json"], devices: ["onda-v975.umockdev"])
        #expect(onda.status == 0, "\(onda.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(onda.stdout.utf8)) as? [[String: Any]])
        let device = try #require(array.first)
        #expect(array.count == 1)
        #expect(device["id"] as? String == "iio:device0")
        #expect(device["chosen"] as? Bool == true)
        #expect(device["location"] as? String == "display")
        // The udev property (hwdb quirk) wins over the sysfs identity matrix.
        #expect(device["mount_matrix"] as? String == "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(device["mount_matrix_source"] as? String == "udev ACCEL_MOUNT_MATRIX")
        #expect(device["scale"] as? [Double] == [0.019163, 0.019163, 0.019163])
        #expect(device["sampling_frequency_hz"] as? Double == 5.2)
        #expect(device["default_rate_hz"] as? Double == 12)
        #expect(device["buffered"] as? Bool == false)

        let buffered = try DeviceTestSupport.tiltd(["list", "--json"], devices: ["buffered.umockdev"])
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(buffered.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(entry["buffered"] as? Bool == true)
        #expect(entry["timestamp"] as? Bool == true)
        #expect(entry["trigger"] as? String == "accel_3d-dev0")
        #expect(entry["timestamp_clock"] as? String == "realtime")
    }

    @Test func scaleAndMatrixSourcesFollowTheSysfsPriority() throws {
        let result = try DeviceTestSupport.tiltd(["list", "--json"], devices: ["vectors.umockdev"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: array.map { ($0["id"] as? String ?? "", $0) })
        #expect(byID["iio:device1"]?["scale_source"] as? String
                == "in_accel_x_scale, in_accel_y_scale, in_accel_z_scale")
        #expect(byID["iio:device1"]?["mount_matrix_source"] as? String == "mount_matrix")
        #expect(byID["iio:device2"]?["mount_matrix_source"] as? String == "in_accel_mount_matrix")
        #expect(byID["iio:device3"]?["scale_source"] as? String == "scale")
        #expect(byID["iio:device3"]?["scale"] as? [Double] == [0.038320312, 0.038320312, 0.038320312])
        #expect(byID["iio:device0"]?["mount_matrix_source"] as? String == "identity (none found)")
    }

    /// Nothing to read is an empty listing, not a failure: the reason on
    /// stderr, exit 0 (a failure to read a device present still exits 1).
    @Test func saysWhyWhenThereIsNoAccelerometer() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        // An empty testbed: no /sys/bus/iio at all.
        let result = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", TiltdProcess.binary.path, "list"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no IIO subsystem"))
        #expect(result.stderr.contains("--uri ip:HOST"))
    }

    /// `list --json` printed nothing with no device, and the
    /// message named neither game pads nor a way to try tiltd without one.
    @Test func withNoDeviceJSONIsAnEmptyArrayAndTheMessageSaysWhatElseToTry() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let json = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", TiltdProcess.binary.path, "list", "--json"])
        #expect(json.status == 0)
        #expect(json.stdout == "[]\n")
        let text = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", TiltdProcess.binary.path, "list"])
        for hint in ["no game pad", "DualSense", "tiltd replay", "umockdev", "docs/devices.md"] {
            #expect(text.stderr.contains(hint), "\(text.stderr)")
        }
    }

    /// A copy installed as `make install` and the package put it
    /// (PREFIX/bin/tiltd, the recordings in PREFIX/share/tiltd/recordings)
    /// names the installed sweep, which replays from any folder.
    @Test func anInstalledCopyNamesTheInstalledRecording() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let prefix = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let recordings = prefix + "/share/tiltd/recordings"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
        // cp(1) writes the copy: a descriptor this process held open for
        // writing would be inherited by children other suites spawn, and
        // exec would then fail with ETXTBSY.
        let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path
        for (from, to) in [(TiltdProcess.binary.path, prefix + "/bin/tiltd"), (sweep, recordings)] {
            let copy = try ExternalProgram.run("cp", [from, to])
            #expect(copy.status == 0, "cp: \(copy.stderr)")
        }
        let list = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", prefix + "/bin/tiltd", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.contains("tiltd replay --realtime \(recordings)/synthetic-tilt-sweep.trace)"), "\(list.stderr)")
    }

    /// `run` with nothing to read says the same: a newcomer runs it first.
    @Test func runWithNoDeviceSaysWhatElseToTry() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let run = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", TiltdProcess.binary.path, "run"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no IIO subsystem"), "\(run.stderr)")
        for hint in ["no game pad", "DualSense", "tiltd replay", "umockdev", "docs/devices.md"] {
            #expect(run.stderr.contains(hint), "\(run.stderr)")
        }
    }
}
