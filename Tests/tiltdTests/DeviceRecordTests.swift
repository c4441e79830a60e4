import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceRecordTests {
    /// `tiltd record` writes the device's metadata and raw samples; replaying
    /// the trace gives the same states as the live run did.
    @Test func recordingReplaysToTheLiveStates() throws {
        let trace = DeviceTestSupport.temporaryFile("record.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let record = try DeviceTestSupport.tiltd(["record", "--out", trace.path, "--count", "8", "--mode", "buffer"],
                                                 devices: ["buffered.umockdev"], script: "buffered.script")
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout.isEmpty)
        #expect(record.stderr.contains("recorded 8 samples to \(trace.path)"))
        let text = try String(contentsOf: trace, encoding: .utf8)
        for header in ["# name: accel_3d", "# label: accel-display", "# uri: local:",
                       "# scale: 0.038320312 0.038320312 0.038320312", "# mount-matrix-source: identity (none found)",
                       "# sampling-frequency-hz: 100", "# device: iio:device0", "# mode: buffer", "# clock: monotonic"] {
            #expect(text.contains(header + "\n"), "\(header)")
        }
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("s ") }.count == 8)

        let live = try DeviceTestSupport.tiltd(["run", "--count", "8", "--mode", "buffer", "--no-gate"],
                                               devices: ["buffered.umockdev"], script: "buffered.script")
        let replay = try TiltdProcess.run(["replay", "--no-gate", trace.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == live.stdout)
        #expect(DeviceTestSupport.states(replay.stdout).count == 8)
    }

    @Test func recordOptionsAreValidated() throws {
        let both = try TiltdProcess.run(["record", "--out", "x.trace", "--count", "3", "--duration", "1"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--count or --duration, not both"))
        let missing = try TiltdProcess.run(["record", "--count", "3"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--out"))
        let zero = try TiltdProcess.run(["run", "--count", "0"])
        #expect(zero.status != 0)
        #expect(zero.stderr.contains("--count 0"))
    }
}
