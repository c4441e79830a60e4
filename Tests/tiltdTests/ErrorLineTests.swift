import Foundation
import Testing
import TiltdTestSupport

/// Every error line starts `tiltd: error:` and is tiltd's own words (no C
/// library's); a usage error is that line and the usage (two lines), as the
/// README says.
@Suite(.timeLimit(.minutes(15))) struct ErrorLineTests {
    static let sweep = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    /// A bad value was the error, ArgumentParser's `Help:` line (the
    /// option's help) and the usage: four lines.
    @Test(arguments: [["replay", "--cutoff", "abc", sweep], ["run", "--rate", "bad"], ["render", sweep, "--fps", "x"],
                      ["draw", "larsbar", "--value", "v"], ["serve", "--port", "http"]])
    func aUsageErrorIsItsLineAndTheUsage(_ arguments: [String]) throws {
        let r = try TiltdProcess.run(arguments)
        #expect(r.status == 64)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty, "\(r.stderr)")
        #expect(lines.first?.hasPrefix("tiltd: error: The value ") == true, "\(r.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: tiltd ") == true, "\(r.stderr)")
        #expect(lines.dropFirst(2).first?.hasPrefix("  See 'tiltd ") == true, "\(r.stderr)")
        #expect(!r.stderr.contains("Help:"), "\(r.stderr)")
    }

    /// The device could not be opened (here: nothing listens on the port):
    /// the failure is an error line, then the hint.
    @Test(arguments: [["run", "--count", "1"], ["record", "--out", "unused.trace", "--count", "1"], ["list"],
                      ["serve", "--port", "0"]])
    func aDeviceThatDoesNotOpenIsAnError(_ arguments: [String]) throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try TiltdProcess.run(arguments + ["--uri", "ip:127.0.0.1:1"], timeout: 120)
        #expect(r.status == 1, "\(r.stderr)")
        let first = try #require(r.stderr.split(separator: "\n").first)
        #expect(first.hasPrefix("tiltd: error: opening the IIO context on ip:127.0.0.1:1"), "\(r.stderr)")
    }

    /// An empty testbed (no /sys/bus/iio): `run` fails with an error naming
    /// the missing IIO subsystem; `list` reports an empty listing, the same
    /// reason as a notice, and exits 0.
    @Test func noIIOSubsystemIsAnErrorToRunAndAnEmptyListing() throws {
        try DeviceTestSupport.require("/usr/bin/umockdev-run")
        let run = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", TiltdProcess.binary.path, "run"])
        #expect(run.status == 1)
        let first = try #require(run.stderr.split(separator: "\n").first)
        #expect(first.hasPrefix("tiltd: error: opening the IIO context on local:"), "\(run.stderr)")
        let list = try DeviceTestSupport.run(["/usr/bin/umockdev-run", "--", TiltdProcess.binary.path, "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stderr.hasPrefix("tiltd: opening the IIO context on local:"), "\(list.stderr)")
        #expect(!list.stderr.contains("error"), "\(list.stderr)")
    }

    /// libsndfile's "System error : No such file or directory." (and
    /// Foundation's sentence for a JSON Lines file) stayed in the message.
    @Test func aLevelFileThatCannotBeReadIsNamedInTiltdsWords() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(path: String, reason: String)] = [
            (dir + "/none.wav", "No such file or directory"), (dir + "/none.jsonl", "No such file or directory"),
            (dir, "Is a directory"),
        ]
        for (path, reason) in cases {
            for command in [["levels", "--levels-file", path],
                            ["render", Self.sweep, "--control", "larsbar", "--levels-file", path, "--out", dir + "/f"]] {
                let r = try TiltdProcess.run(command)
                #expect(r.status == 1, "\(r.stderr)")
                #expect(r.stderr.hasPrefix("tiltd: error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
                #expect(r.stderr.hasSuffix("cannot read level file \(path): \(reason); check the path and its "
                    + "permissions\n"), "\(command): \(r.stderr)")
            }
        }
    }
}
