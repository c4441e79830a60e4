import Foundation
@testable import Motion
import Testing
import TiltdTestSupport
import Traces

@Suite(.timeLimit(.minutes(2))) struct TraceTests {
    /// A fresh temporary file path.
    static func temporaryPath(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltd-trace-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    static func write(_ text: String, name: String = "t.trace") -> String {
        let path = temporaryPath(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func roundTrip() throws {
        let path = Self.temporaryPath("round.trace")
        let header = TraceHeader(
            name: "bmi260", label: "accel-display", uri: "local:", scale: SIMD3(0.0023942, 0.0023942, 0.0023942),
            offset: SIMD3(0, 0, -3), mountMatrix: try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1"),
            mountMatrixSource: "udev ACCEL_MOUNT_MATRIX", samplingFrequencyHertz: 12.5, tiltdVersion: "0.1.0",
            extra: ["source": "unit test\nwith a line break", "axis-mapping": "identity"])
        let writer = try TraceWriter(path: path, header: header)
        let samples: [(Int64, SIMD3<Double>?, SIMD3<Double>)] = [
            (1_000_000_000, SIMD3(48, -4081, 128), SIMD3(0.1149, -9.7712, 0.30645)),
            (1_010_000_000, nil, SIMD3(1e-7, -9.81, 1.0 / 3)),
            (1_020_000_000, SIMD3(1, 2, 3), SIMD3(-0.0, 123456.789, -2.5e-300)),
        ]
        try writer.append(timestampNanoseconds: samples[0].0, raw: samples[0].1, acceleration: samples[0].2)
        try writer.append(timestampNanoseconds: samples[1].0, raw: samples[1].1, acceleration: samples[1].2)
        try writer.appendGap(timestampNanoseconds: 1_015_000_000, reason: "device vanished")
        try writer.append(timestampNanoseconds: samples[2].0, raw: samples[2].1, acceleration: samples[2].2)
        try writer.close()
        #expect(throws: TraceError.self) {
            try writer.append(timestampNanoseconds: 0, raw: nil, acceleration: .zero)
        }

        let recording = try Recording.load(path: path)
        #expect(recording.format == .trace)
        var expectedHeader = header
        expectedHeader.extra["source"] = "unit test with a line break"
        #expect(recording.header == expectedHeader)
        #expect(recording.readings.map(\.timestampNanoseconds) == samples.map(\.0))
        #expect(recording.readings.map(\.acceleration) == samples.map(\.2))
        #expect(recording.raw.count == 3)
        #expect(recording.raw[0] == SIMD3(48, -4081, 128))
        #expect(recording.raw[1].x.isNaN)
        #expect(recording.gaps == [TraceGap(timestampNanoseconds: 1_015_000_000, reason: "device vanished",
                                            readingIndex: 2)])
        #expect(recording.warnings.isEmpty)
    }

    @Test func tornLastLineIsSkippedWithAWarning() throws {
        let path = Self.write("tiltd-trace 1\ns 1 0 0 9.81\ns 2 0 0 9.8")
        let recording = try Recording.load(path: path)
        #expect(recording.readings.count == 1)
        #expect(recording.warnings.count == 1)
        #expect(recording.warnings.first?.contains("\(path):3:") == true)
    }

    @Test func malformedLineNamesFileAndLine() throws {
        let path = Self.write("tiltd-trace 1\n# name: x\ns 1 0 0 9.81\ns 2 0 zero 9.81\ns 3 0 0 9.81\n")
        let error = #expect(throws: TraceError.self) { try Recording.load(path: path) }
        #expect(error == .malformed(path: path, line: 4, problem:
            "expected \"s <timestamp ns> <ax> <ay> <az> [<raw x> <raw y> <raw z>]\"; the line is \"s 2 0 zero 9.81\""))
        #expect(error?.description.hasPrefix("\(path):4: ") == true)
        let unknown = Self.write("tiltd-trace 1\nbogus\n")
        #expect(throws: TraceError.malformed(path: unknown, line: 2, problem:
            "unknown record; trace lines start with \"s \" (sample), \"g \" (gap) or \"#\"; the line is \"bogus\"")) {
            try Recording.load(path: unknown)
        }
    }

    @Test func newerVersionIsRefused() throws {
        let path = Self.write("tiltd-trace 3\ns 1 0 0 9.81\n")
        let error = #expect(throws: TraceError.self) { try Recording.load(path: path) }
        #expect(error == .newerVersion(path: path, version: 3))
        #expect(error?.description.contains("upgrade tiltd") == true)
    }

    @Test func unknownFieldsAreIgnored() throws {
        let path = Self.write("""
            tiltd-trace 1
            # name: dev
            # future-key: something
            # just a comment without key
            s 10 1 2 3 4 5 6 7 8
            # a comment between samples
            g 15 paused extra words
            s 20 1 2 3

            """)
        let recording = try Recording.load(path: path)
        #expect(recording.readings.count == 2)
        #expect(recording.header?.name == "dev")
        #expect(recording.header?.extra == ["future-key": "something"])
        #expect(recording.gaps.first?.reason == "paused extra words")
    }

    @Test func csvInMetresPerSecondSquaredAndG() throws {
        let text = "time_s,accel_x,accel_y,accel_z\n0.000,0,0,1\n0.02,0.5,-0.25,1e0\r\n\n1.000000001,1,2,3"
        let path = Self.write(text, name: "a.csv")
        let ms2 = try Recording.load(path: path)
        #expect(ms2.format == .csv)
        #expect(ms2.readings.map(\.timestampNanoseconds) == [0, 20_000_000, 1_000_000_001])
        #expect(ms2.readings[1].acceleration == SIMD3(0.5, -0.25, 1))
        let g = try Recording.load(path: path, units: .g)
        #expect(g.readings[0].acceleration == SIMD3(0, 0, 9.80665))
        #expect(ms2.warnings.isEmpty)
    }

    @Test func csvErrors() throws {
        let bad = Self.write("time_s,accel_x,accel_y,accel_z\n0,0,0,1\n0.1,0,0\n", name: "bad.csv")
        let error = #expect(throws: TraceError.self) { try Recording.load(path: bad) }
        #expect(error?.description.hasPrefix("\(bad):3: ") == true)
        let torn = Self.write("time_s,accel_x,accel_y,accel_z\n0,0,0,1\n0.1,0,", name: "torn.csv")
        let recording = try Recording.load(path: torn)
        #expect(recording.readings.count == 1 && recording.warnings.count == 1)
        let other = Self.write("t,x,y,z\n", name: "other.csv")
        #expect(throws: TraceError.unknownFormat(path: other, firstLine: "t,x,y,z")) { try Recording.load(path: other) }
        let empty = Self.write("", name: "empty.csv")
        #expect(throws: TraceError.self) { try Recording.load(path: empty) }
        #expect(throws: TraceError.self) { try Recording.load(path: "/nonexistent/file.trace") }
    }

    @Test func decimalParserEqualsSwiftsParser() {
        var generator = SplitMix(seed: 3)
        var texts = ["0", "-0", "1", "-1.5", ".5", "5.", "1e3", "1E-3", "+2.25", "123456789012345678",
                     "0.1234567890123456789", "9007199254740993", "1.7976931348623157e308", "4.9e-324",
                     "0.000000000000000000000000001", "12345678901234567890123", "-9.80665", "0.009806"]
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) * (generator.next() % 2 == 0 ? 1 : -1)
            texts.append(value.description)
            let fixed = Double(Int64(generator.next() % 2_000_000_000) - 1_000_000_000) / 1e6
            texts.append(fixed.description)
            texts.append(String(Int(generator.next() % 100_000)) + "." + String(Int(generator.next() % 1_000_000)))
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { TraceDecimal.double($0.baseAddress!, 0, $0.count) }
            #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        for junk in ["", "-", ".", "e5", "1e", "1.2.3", "nan", "inf", "0x10", "1,5", "1 "] {
            let bytes = Array(junk.utf8) + [0]
            let parsed = bytes.withUnsafeBufferPointer { TraceDecimal.double($0.baseAddress!, 0, $0.count - 1) }
            #expect(parsed == nil, "\(junk)")
        }
    }

    @Test func secondsBecomeExactNanoseconds() {
        func ns(_ text: String) -> Int64? {
            let bytes = Array(text.utf8) + [0]
            return bytes.withUnsafeBufferPointer { TraceDecimal.nanoseconds(seconds: $0.baseAddress!, 0, $0.count - 1) }
        }
        #expect(ns("12.345678901") == 12_345_678_901)
        #expect(ns("0.020248413") == 20_248_413)
        #expect(ns("-1.5") == -1_500_000_000)
        #expect(ns("3") == 3_000_000_000)
        #expect(ns("0.0000000015") == 2)
        #expect(ns("1e-3") == 1_000_000)
        #expect(ns("abc") == nil)
        #expect(ns("1.2x") == nil)
    }
}
