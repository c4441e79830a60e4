import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceBufferedTests {
    @Test func statesCarryTheDeviceTimestamps() throws {
        let trace = DeviceTestSupport.temporaryFile("buffered.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let result = try DeviceTestSupport.tiltd(
            ["run", "--mode", "buffer", "--count", "5", "--no-gate", "--record", trace.path],
            devices: ["buffered.umockdev"], script: "buffered.script")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("buffer mode at 100 Hz with monotonic timestamps"))
        // make-scripts.py: scans at 1000 s + 10 ms·i on the device's clock.
        #expect(DeviceTestSupport.times(result.stdout) == [1000.0, 1000.01, 1000.02, 1000.03, 1000.04])
        // Raw counts decoded from the 24-byte scans: x = round(64·sin(2πi/40)), y = −256, z = 20.
        let samples = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("s ") }
        #expect(samples.first == "s 1000000000000 0 -9.809999872 0.76640624 0 -256 20")
        #expect(samples.count == 5)
        #expect(samples[1].hasSuffix(" 10 -256 20"))
    }

    /// Reading several scans per wake-up (`--latency`) changes when states
    /// are delivered, never which: the same lines and the same recorded
    /// samples, byte for byte, as one scan per wake-up.
    @Test func batchedScansGiveTheSameStatesAsOneScanAWake() throws {
        func run(_ latency: String) throws -> (states: String, samples: [Substring]) {
            let trace = DeviceTestSupport.temporaryFile("latency-\(latency).trace")
            defer { try? FileManager.default.removeItem(at: trace) }
            let result = try DeviceTestSupport.tiltd(
                ["run", "--mode", "buffer", "--rate", "200", "--count", "600", "--latency", latency,
                 "--record", trace.path],
                devices: ["buffered.umockdev"], script: "bench-200hz.script")
            #expect(result.status == 0, "--latency \(latency): \(result.stderr)")
            let text = try String(contentsOf: trace, encoding: .utf8)
            return (result.stdout, text.split(separator: "\n").filter { $0.hasPrefix("s ") })
        }
        let one = try run("0")
        #expect(one.samples.count == 600)
        #expect(DeviceTestSupport.states(one.states).count > 10)
        for latency in ["16", "100"] {
            let batched = try run(latency)
            #expect(batched.states == one.states, "--latency \(latency)")
            #expect(batched.samples == one.samples, "--latency \(latency)")
        }
    }

    @Test func silentBufferFallsBackToPollingWithinHalfASecond() throws {
        let trace = DeviceTestSupport.temporaryFile("silent.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let result = try DeviceTestSupport.tiltd(["run", "--count", "3", "--no-gate", "--record", trace.path],
                                                 devices: ["buffered.umockdev"], script: "silent.script")
        #expect(result.status == 0, "\(result.stderr)")
        let notice = result.stderr.split(separator: "\n").filter { $0.contains("unavailable") }
        #expect(notice.count == 1)
        #expect(notice.first?.contains("delivered nothing for 0.5 s") == true)
        #expect(notice.first?.contains("polling at 100 Hz instead") == true)
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.contains("# mode: poll"))
        // Polled from in_accel_*_raw, not the scripted scan (100, 100, 100) that comes after 2 s:
        // the fall-back came before the buffer's first scan (how soon in wall time is not asserted).
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("s ") }.allSatisfy { $0.hasSuffix(" 0 -256 0") })
    }

    @Test func bufferModeRefusesADeviceWithoutBuffer() throws {
        let result = try DeviceTestSupport.tiltd(["run", "--mode", "buffer", "--count", "1"],
                                                 devices: ["onda-v975.umockdev"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no buffer"))
        #expect(result.stderr.contains("--mode poll"))
    }

    @Test func endOfScriptMidRunIsReportedWithoutACrash() throws {
        let trace = DeviceTestSupport.temporaryFile("end.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let result = try DeviceTestSupport.tiltd(
            ["run", "--mode", "buffer", "--duration", "3", "--no-gate", "--record", trace.path],
            devices: ["buffered.umockdev"], script: "buffered.script")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.timedOut)
        // All 20 scripted scans, then refill timeouts reported as a fault.
        #expect(DeviceTestSupport.states(result.stdout).count == 20)
        #expect(result.stderr.contains("ETIMEDOUT"))
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("s ") }.count == 20)
        #expect(text.contains("\ng "))

        // In auto mode the same end falls back to polling and keeps going.
        let auto = try DeviceTestSupport.tiltd(["run", "--count", "25", "--no-gate"],
                                               devices: ["buffered.umockdev"], script: "buffered.script")
        #expect(auto.status == 0, "\(auto.stderr)")
        #expect(DeviceTestSupport.states(auto.stdout).count == 25)
        #expect(auto.stderr.contains("polling at 100 Hz instead"))
    }
}
