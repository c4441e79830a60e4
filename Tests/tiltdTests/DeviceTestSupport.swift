import Foundation
import Testing
import TiltdTestSupport

/// Helpers for the device tests: fixtures, required tools, processes run
/// under umockdev, and parsed JSON Lines.
enum DeviceTestSupport {
    /// `Tests/Fixtures/<name>`.
    static func fixture(_ name: String) -> URL {
        TiltdProcess.fixtures.appendingPathComponent(name)
    }

    /// Fails the test with a message saying how to install `path` when it is missing.
    static func require(_ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingTool(path: path)
        }
    }

    /// Fails the test when the French locale is missing.
    static func requireFrenchLocale() throws {
        let result = try run(["/usr/bin/locale", "-a"], timeout: 30)
        guard result.stdout.lowercased().contains("fr_fr.utf8") else {
            throw MissingTool(path: "locale fr_FR.UTF-8")
        }
    }

    struct MissingTool: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing: run scripts/setup.sh test" }
    }

    /// A file name in the temporary folder no other test uses.
    static func temporaryFile(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltd-\(UUID().uuidString)-\(suffix)")
    }

    /// Runs any program and waits at most `timeout` seconds.
    static func run(_ argv: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 90) throws -> TiltdProcess.Result {
        try TiltdProcess.execute(URL(fileURLWithPath: argv[0]), Array(argv.dropFirst()),
                                 environment: environment, timeout: timeout)
    }

    /// Runs tiltd under umockdev-run with the given fixtures.
    static func tiltd(_ arguments: [String], devices: [String], script: String? = nil,
                      environment: [String: String] = [:], timeout: TimeInterval = 90) throws -> TiltdProcess.Result {
        try require("/usr/bin/umockdev-run")
        return try TiltdProcess.run(arguments, devices: devices.map(fixture),
                                    scripts: script.map { [("/dev/iio:device0", fixture($0))] } ?? [],
                                    environment: environment, timeout: timeout)
    }

    /// Each stdout line decoded as a JSON object; a line that is not one fails the test.
    static func states(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if object == nil { Issue.record("not a JSON object: \(line)", sourceLocation: sourceLocation) }
            return object
        }
    }

    /// The orientations of the states, in order.
    static func orientations(_ stdout: String) -> [String] {
        states(stdout).map { $0["orientation"] as? String ?? "null" }
    }

    /// The `t` values of the states, in seconds.
    static func times(_ stdout: String) -> [Double] {
        states(stdout).compactMap { ($0["t"] as? NSNumber)?.doubleValue }
    }
}
