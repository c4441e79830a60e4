import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct DeviceSignalTests {
    /// SIGINT mid-run: exit 0, the buffer disabled again, the trace closed
    /// with every sample that was printed.
    @Test func sigintDisablesTheBufferAndClosesTheTrace() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let trace = DeviceTestSupport.temporaryFile("sigint.trace")
        let output = DeviceTestSupport.temporaryFile("sigint.out")
        defer {
            try? FileManager.default.removeItem(at: trace)
            try? FileManager.default.removeItem(at: output)
        }
        let sysfs = "/sys/bus/iio/devices/iio:device0"
        // `timeout` delivers the SIGINT after 6 s, while the 8 s script still
        // streams. Meanwhile the subshell looks for the buffer enabled once
        // samples flow (polling: on a loaded machine a refill timeout can
        // briefly reopen it).
        let command = """
            (i=0; seen=0
             while [ $i -lt 3000 ]; do
               if [ $(wc -l < '\(output.path)') -ge 5 ] && [ "$(tr -d '\\000' < \(sysfs)/buffer/enable)" = 1 ]; then
                 seen=1; break
               fi
               sleep 0.01; i=$((i+1))
             done
             echo "enabled while running: $seen") &
            timeout --preserve-status -s INT 6 \(TiltdProcess.binary.path) run --mode buffer --no-gate \\
                --record '\(trace.path)' > '\(output.path)'
            echo "status $?"
            echo "enabled after: $(tr -d '\\000' < \(sysfs)/buffer/enable)"
            """
        let result = try DeviceTestSupport.run(
            ["/usr/bin/umockdev-run", "--device", DeviceTestSupport.fixture("buffered.umockdev").path,
             "-s", "/dev/iio:device0=\(DeviceTestSupport.fixture("steady.script").path)",
             "--", "/bin/sh", "-c", command])
        #expect(result.stdout.contains("enabled while running: 1"), "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("status 0"))
        #expect(result.stdout.contains("enabled after: 0"))
        let printed = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").count
        let recorded = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("s ") }.count
        #expect(printed >= 5)
        #expect(recorded == printed)
    }
}
