import Foundation
import Testing
import TiltdTestSupport

@Suite(.timeLimit(.minutes(15))) struct ReplayTests {
    static let recordings = ["ngimu-hand-motion.trace", "yei-quiet-handling.trace", "synthetic-tilt-sweep.trace"]

    static func recording(_ name: String) -> String {
        TiltdProcess.repositoryRoot.appendingPathComponent("recordings/\(name)").path
    }

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltd-replay-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static var hasFrenchLocale: Bool {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/locale")
        process.arguments = ["-a"]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return false }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.lowercased().split(separator: "\n").contains("fr_fr.utf8")
    }

    /// Parses JSON Lines output, failing the test on a line that is not an object.
    static func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            return object
        }
    }

    @Test(arguments: recordings)
    func replayIsRepeatableAndWellFormed(name: String) throws {
        let first = try TiltdProcess.run(["replay", Self.recording(name)])
        let second = try TiltdProcess.run(["replay", Self.recording(name)])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let states = Self.objects(first.stdout)
        #expect(states.count > 50)
        for state in states {
            #expect(state["t"] is Double && state["roll"] is Double && state["pitch"] is Double)
            #expect((state["shine"] as? [[String: Any]])?.count == 2)
            #expect(["normal", "bottom-up", "left-up", "right-up", "face-up", "face-down", "undefined"]
                .contains(state["orientation"] as? String ?? "?"))
        }
        let ungated = try TiltdProcess.run(["replay", "--no-gate", Self.recording(name)])
        #expect(Self.objects(ungated.stdout).count > states.count)
    }

    @Test(.enabled(if: ReplayTests.hasFrenchLocale,
                   "fr_FR.UTF-8 is not generated on this machine: run scripts/setup.sh test"))
    func frenchLocaleGivesTheSameOutput() throws {
        let csv = try Self.temporaryFile("fr.csv", "time_s,accel_x,accel_y,accel_z\n0.000,0.25,0.5,9.5\n0.010,1.5,-0.75,9.25\n")
        for file in [Self.recording("ngimu-hand-motion.trace"), csv] {
            let c = try TiltdProcess.run(["replay", "--neutral", "0.1,0.2", "--cutoff", "4.5", file],
                                         environment: ["LC_ALL": "C"])
            let french = try TiltdProcess.run(["replay", "--neutral", "0.1,0.2", "--cutoff", "4.5", file],
                                              environment: ["LC_ALL": "fr_FR.UTF-8"])
            #expect(c.status == 0 && french.status == 0, "\(french.stderr)")
            #expect(!c.stdout.isEmpty)
            #expect(french.stdout == c.stdout)
            // A comma between digits outside square brackets (inside them
            // it parts the numbers of an array: the device motion's).
            let bytes = Array(french.stdout.utf8)
            var depth = 0
            var decimalComma = false
            for i in bytes.indices.dropFirst().dropLast() {
                if bytes[i] == UInt8(ascii: "[") { depth += 1 }
                if bytes[i] == UInt8(ascii: "]") { depth -= 1 }
                if depth == 0, bytes[i] == UInt8(ascii: ","), (48...57).contains(bytes[i - 1]),
                   (48...57).contains(bytes[i + 1]) { decimalComma = true }
            }
            #expect(!decimalComma, "decimal commas in the output")
        }
    }

    /// With a gyro the lines carry the device motion after the shine;
    /// without (or with --no-gyro) they end at the shine as before.
    @Test func theDeviceMotionFieldsComeWithTheGyro() throws {
        let keys = ["attitude", "gravity", "userAcceleration", "rotationRate", "rest", "gyroBias"]
        let fused = try TiltdProcess.run(["replay", "--no-gate", Self.recording("yei-quiet-handling.trace")])
        #expect(fused.status == 0, "\(fused.stderr)")
        let lines = fused.stdout.split(separator: "\n")
        #expect(lines.count > 1000)
        for line in lines.prefix(50) + lines.suffix(50) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(keys.allSatisfy { object?[$0] != nil }, "\(line)")
            let gravity = object?["gravity"] as? [Double] ?? []
            #expect(gravity.count == 3 && abs(gravity.map { $0 * $0 }.reduce(0, +) - 1) < 1e-3)
            #expect((object?["attitude"] as? [Double])?.count == 4)
            #expect(object?["rest"] is Bool)
        }
        for options in [["--no-gyro"], []] {
            let file = options.isEmpty ? Self.recording("synthetic-tilt-sweep.trace")  // no gyro in it
                : Self.recording("yei-quiet-handling.trace")
            let plain = try TiltdProcess.run(["replay", "--no-gate"] + options + [file])
            #expect(plain.status == 0 && !plain.stdout.isEmpty)
            #expect(!plain.stdout.contains("attitude") && !plain.stdout.contains("gyroBias"))
        }
    }

    @Test func csvUnitsGAndMetresPerSecondSquaredAgree() throws {
        let g = try Self.temporaryFile("g.csv", "time_s,accel_x,accel_y,accel_z\n0,0,0,1\n0.01,0.1,0,1\n0.02,0.2,0.1,0.98\n")
        let ms2 = try Self.temporaryFile("ms2.csv",
            "time_s,accel_x,accel_y,accel_z\n0,0,0,9.80665\n0.01,0.980665,0,9.80665\n0.02,1.96133,0.980665,9.610517\n")
        let a = try TiltdProcess.run(["replay", "--no-gate", "--units", "g", g])
        let b = try TiltdProcess.run(["replay", "--no-gate", ms2])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.hasPrefix(#"{"t":0.000000,"roll":0,"pitch":0,"orientation":"face-up","#))
        #expect(Self.objects(a.stdout).count == 3)
    }

    @Test func badFilesGiveOneLineErrors() throws {
        let missing = try TiltdProcess.run(["replay", "/nonexistent/x.trace"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("/nonexistent/x.trace"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let bad = try Self.temporaryFile("bad.trace", "tiltd-trace 1\ns 1 0 0 9.81\ns two 0 0 9.81\n")
        let malformed = try TiltdProcess.run(["replay", bad])
        #expect(malformed.status != 0)
        #expect(malformed.stderr.contains("\(bad):3:"))
        #expect(malformed.stdout.isEmpty)
        let newer = try Self.temporaryFile("new.trace", "tiltd-trace 9\ns 1 0 0 9.81\n")
        let refused = try TiltdProcess.run(["replay", newer])
        #expect(refused.status != 0 && refused.stderr.contains("newer tiltd"))
    }

    @Test(arguments: [["--cutoff", "0"], ["--cutoff", "abc"], ["--threshold", "-1"], ["--knob-radius", "0"],
                      ["--neutral", "up"], ["--screen-orientation", "sideways"], ["--units", "furlongs"],
                      ["--threshold", "0.1", "--knob-radius", "24"]])
    func badOptionsAreRejected(options: [String]) throws {
        let result = try TiltdProcess.run(["replay"] + options + [Self.recording("yei-quiet-handling.trace")])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tiltd: error: "))
    }

    @Test func warningsGoToStderrOnceEach() throws {
        var text = "tiltd-trace 1\n"
        for i in 0..<10 { text += "s \(1_000_000_000 - i * 10_000_000) 0 0 9.81\n" }  // backwards
        text += "s 5000000000 0 0"  // torn
        let path = try Self.temporaryFile("warn.trace", text)
        let result = try TiltdProcess.run(["replay", path])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("went backwards") }.count == 1)
        #expect(lines.contains { $0.contains("8 more backwards-timestamp") })
        #expect(lines.contains { $0.contains("\(path):12:") && $0.contains("incomplete") })
        #expect(!result.stdout.isEmpty)
    }

    @Test func realtimePacesToTimestamps() throws {
        var text = "tiltd-trace 1\n"
        for i in 0...60 { text += "s \(i * 10_000_000) \(Double(i) * 0.05) 0 9.81\n" }  // 0.6 s of motion
        let path = try Self.temporaryFile("rt.trace", text)
        // The pacing itself: PacedReplayTests, on a virtual clock.
        let result = try TiltdProcess.run(["replay", "--realtime", path])
        #expect(result.status == 0)
        #expect(Self.objects(result.stdout).count > 10)
    }

    @Test func knobRadiusDerivesTheThreshold() throws {
        let file = Self.recording("synthetic-tilt-sweep.trace")
        let coarse = try TiltdProcess.run(["replay", "--knob-radius", "4", file])
        let fine = try TiltdProcess.run(["replay", "--knob-radius", "100", file])
        let explicit = try TiltdProcess.run(["replay", "--threshold", String(1.0 / 12), file])
        #expect(coarse.stdout == explicit.stdout)
        #expect(Self.objects(fine.stdout).count > Self.objects(coarse.stdout).count)
    }
}
