import Foundation
import Testing
import TiltdTestSupport

/// Game pads' motion sensors through evdev, faked with umockdev (ioctl
/// answers + evemu events): list, run, selection, the frame, hot-plug.
@Suite(.timeLimit(.minutes(15))) struct PadDeviceTests {
    /// The scripted angles are reached within this (radians): the 5 Hz
    /// low-pass filter settles during each 0.5 s hold; the script rounds raw
    /// values to integers.
    static let angleTolerance = 0.02

    @Test func listShowsEachPadWithItsAxesAndNeverTheKeyboard() throws {
        let result = try PadTestSupport.tiltd(["list"], pads: [.ds4, .deck])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("* /dev/input/event5  Sony Interactive Entertainment Wireless Controller Motion Sensors"))
        #expect(lines.contains("  /dev/input/event7  Steam Deck Motion Sensors"))
        #expect(lines.contains("    evdev         054c:09cc over usb, hid-playstation"))
        #expect(lines.contains("    evdev         28de:1205 over usb, hid-steam"))
        #expect(result.stdout.contains("ABS_X -32768…32768 res 8192"))
        #expect(result.stdout.contains("ABS_RZ -32768…32768 res 16 (resolution in units per °/s)"))
        #expect(result.stdout.contains("mount matrix  -1, 0, 0; 0, 0, 1; 0, 1, 0"))
        #expect(!result.stdout.contains("event2"))
    }

    @Test func listJSONDescribesAxesResolutionAndFrame() throws {
        let result = try PadTestSupport.tiltd(["list", "--json"], pads: [.ds4, .deck])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["node"] as? String } == ["/dev/input/event5", "/dev/input/event7"])
        let deck = array[1]
        #expect(deck["source"] as? String == "evdev")
        #expect(deck["usb_id"] as? String == "28de:1205")
        #expect(deck["family"] as? String == "hid-steam")
        #expect(deck["chosen"] as? Bool == false)
        #expect(deck["timestamp"] as? Bool == true)
        let accelerometer = try #require(deck["accelerometer"] as? [[String: Any]])
        #expect(accelerometer.map { $0["name"] as? String } == ["ABS_X", "ABS_Y", "ABS_Z"])
        #expect(accelerometer.map { $0["resolution"] as? Int } == [16384, 16384, 16384])
        let gyroscope = try #require(deck["gyroscope"] as? [[String: Any]])
        #expect(gyroscope.map { $0["resolution"] as? Int } == [16, 16, 16])
        #expect(deck["mount_matrix"] as? String == "-1, 0, 0; 0, 0, 1; 0, 1, 0")
    }

    /// umockdev logs every path it redirects: the pads' nodes are opened, the
    /// keyboard's never (it is not ID_INPUT_ACCELEROMETER=1).
    @Test func theKeyboardNodeIsNeverOpened() throws {
        let result = try PadTestSupport.tiltd(["list"], pads: [.ds4], environment: ["UMOCKDEV_DEBUG": "path"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("(/dev/input/event5)"))
        #expect(!result.stderr.contains("/dev/input/event2"))

        let refused = try PadTestSupport.tiltd(["run", "--device", "/dev/input/event2", "--count", "1"],
                                               pads: [.ds4], environment: ["UMOCKDEV_DEBUG": "path"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no motion sensor matches --device /dev/input/event2"))
        #expect(!refused.stderr.contains("(/dev/input/event2)"))
    }

    /// Ends at the script's 300th report, however slowly a loaded machine
    /// plays it (`--duration` only bounds a failure).
    @Test func runFollowsTheDualShocksScriptedRollAndPitch() throws {
        let result = try PadTestSupport.tiltd(["run", "--device", "/dev/input/event5", "--count", "300",
                                               "--duration", "60"], pads: [.ds4])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("reading /dev/input/event5 (Sony Interactive Entertainment Wireless "
                                       + "Controller Motion Sensors) through evdev (054c:09cc, hid-playstation"))
        let angles = PadTestSupport.angles(result.stdout)
        let first = try #require(angles.first)
        let last = try #require(angles.last)
        // Flat, then right grip down to 0.5 rad, then back while pitching to 0.6 rad.
        #expect(abs(first.roll) < Self.angleTolerance && abs(first.pitch) < Self.angleTolerance)
        #expect(abs((angles.map(\.roll).max() ?? 0) - 0.5) < Self.angleTolerance)
        #expect(abs(last.roll) < Self.angleTolerance)
        #expect(abs(last.pitch - 0.6) < Self.angleTolerance)
        let times = DeviceTestSupport.times(result.stdout)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Without IIO accelerometers and without --device, `tiltd run` reads the
    /// first motion sensor: anyone with a game pad can tilt it.
    @Test func runWithoutDeviceFallsBackToTheGamePad() throws {
        let result = try PadTestSupport.tiltd(["run", "--count", "5", "--no-gate"], pads: [.ds4])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("reading /dev/input/event5"))
        #expect(DeviceTestSupport.states(result.stdout).count == 5)
    }

    /// The kernel's queue overflows once, at 1.2 s of the script, while the
    /// pad is held at roll 0.5: tiltd says so, reads the axes back, and
    /// follows the rest of the motion on the pad's own clock. The run ends
    /// at the script's last report (299 samples read), however slowly a
    /// loaded machine plays it; `--duration` only bounds a failure.
    @Test func droppedEventsAreResynchronised() throws {
        let result = try PadTestSupport.tiltd(["run", "--device", "/dev/input/event5", "--count", "299",
                                               "--duration", "60"], pads: [.ds4Dropping])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("dropped events (SYN_DROPPED): resynchronising"))
        let angles = PadTestSupport.angles(result.stdout)
        let last = try #require(angles.last)
        #expect(abs(last.pitch - 0.6) < Self.angleTolerance)
        #expect(abs(last.roll) < Self.angleTolerance)
        let times = DeviceTestSupport.times(result.stdout)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // The axes read back are the held pose, so nothing passes the gate
        // until the pad moves again at 1.6 s, and that state keeps the
        // pad's time across the drop (not re-anchored to when it was read).
        let first = try #require(times.first)
        let resumed = try #require(times.first { $0 - first > 1.05 })
        #expect(abs(resumed - first - 1.6) < 0.0015, "first state after the hold at \(resumed - first) s")
    }

    /// The Deck is chosen by name; its MSC_TIMESTAMP wraps past 2³² after 1 s
    /// of the script and the samples keep their 4 ms spacing across it.
    @Test func runOnTheDeckByNameKeepsDeviceTimeAcrossTheTimestampWrap() throws {
        let result = try PadTestSupport.tiltd(["run", "--device", "steam deck", "--no-gate", "--count", "500",
                                               "--duration", "60"], pads: [.ds4, .deck], playing: [.deck])
        #expect(result.status == 0, "\(result.stderr)")
        let times = DeviceTestSupport.times(result.stdout)
        #expect(times.count == 500, "\(result.stderr)")
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        // 4000 µs each; the JSON has 6 decimals of a second.
        #expect(steps.allSatisfy { abs($0 - 0.004) < 1.5e-6 }, "steps \(Set(steps.map { ($0 * 1e6).rounded() }))")
        let angles = PadTestSupport.angles(result.stdout)
        let last = try #require(angles.last)
        #expect(abs((angles.map(\.roll).min() ?? 0) + 0.4) < Self.angleTolerance)
        #expect(abs(last.roll + 0.4) < Self.angleTolerance)
        #expect(abs(last.pitch - 0.3) < Self.angleTolerance)
    }

    /// `--mount-matrix` replaces the pad frame: with the identity, a pad
    /// lying face up (+g on its y) reads as upside down upright, pitch −π/2.
    @Test func mountMatrixOverridesThePadFrame() throws {
        let result = try PadTestSupport.tiltd(["run", "--device", "/dev/input/event5", "--count", "1",
                                               "--mount-matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1"], pads: [.ds4])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("command line"))
        let first = try #require(PadTestSupport.angles(result.stdout).first)
        #expect(abs(first.pitch + Double.pi / 2) < 1e-3)
    }

    /// The pad is removed mid-run and reconnects as a new node (event6), as a
    /// Bluetooth pad waking up does: tiltd reports the loss, waits, finds it
    /// again by name, and the trace marks the gap.
    @Test func unplugAndReplugAreSurvivedAndTheTraceMarksTheGap() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-wrapper")
        let trace = DeviceTestSupport.temporaryFile("pad-vanish.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        func fixture(_ name: String) -> String { DeviceTestSupport.fixture(name).path }
        let result = try DeviceTestSupport.run(
            ["/usr/bin/umockdev-wrapper", "/usr/bin/python3", fixture("vanish.py"), fixture("ds4-motion.umockdev"),
             "--ioctl", "/dev/input/event5=\(fixture("ds4-motion.ioctl"))",
             "--evemu", "/dev/input/event5=\(fixture("ds4-motion.events"))",
             "--return-as", "event5=event6", "--return-as", "input5=input6", "--return-as", "MINOR=69=MINOR=70",
             "--return-as", "13:69=13:70",
             "--", TiltdProcess.binary.path, "run", "--device", "/dev/input/event5", "--no-gate",
             "--record", trace.path],
            timeout: 120)
        // vanish.py exits with tiltd's status: 0 after SIGINT, 3 if a step timed out.
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tiltd: lost /dev/input/event5"))
        #expect(result.stderr.contains("No such device (ENODEV): the pad is gone"))
        #expect(result.stderr.contains("tiltd: /dev/input/event6 (Sony Interactive Entertainment Wireless "
                                       + "Controller Motion Sensors) is back: resuming"))
        let text = try String(contentsOf: trace, encoding: .utf8)
        let gaps = text.split(separator: "\n").filter { $0.hasPrefix("g ") }
        #expect(gaps.count == 1)
        #expect(gaps.first?.contains("lost /dev/input/event5") == true)
        #expect(text.contains("# source: evdev 054c:09cc hid-playstation"))
    }
}
