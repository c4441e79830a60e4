import Foundation
import Testing
import TiltdTestSupport

/// Buffered capture of the regenerated steady.script: every scan arrives as
/// scripted, so no "gap" or "timestamp went backwards" notice appears.
/// Regression: the generator's escaped spaces arrived as '^', giving
/// "gap of 1.050187 s before 1002.310187 s" and a backwards timestamp that
/// had been put down to umockdev.
@Suite(.timeLimit(.minutes(15))) struct DeviceScriptedScanTests {
    @Test func bufferedCaptureOfTheSteadyScriptHasNoGapsOrBackwardsTimestamps() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let r = try TiltdProcess.run(
            ["run", "--mode", "buffer", "--no-gate", "--count", "400"],
            devices: [DeviceTestSupport.fixture("buffered.umockdev")],
            scripts: [("/dev/iio:device0", DeviceTestSupport.fixture("steady.script"))], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("gap of") && !r.stderr.contains("went backwards"), "\(r.stderr)")
        // Device timestamps 1000 s + 10 ms·i, each line 10 ms after the last.
        let times = r.stdout.split(separator: "\n").compactMap { line -> Int? in
            guard let start = line.range(of: "\"t\":"), let end = line.range(of: ",", range: start.upperBound..<line.endIndex)
            else { return nil }
            return Double(line[start.upperBound..<end.lowerBound]).map { Int(($0 * 1000).rounded()) }
        }
        #expect(times.count == 400)
        #expect(times.first == 1_000_000)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 10 }, "\(times.prefix(20))")
    }
}
