import Foundation
@testable import Motion
import Testing
import Traces

/// Trace format 2 (gyro per sample, gyro metadata) and CSV gyro columns.
@Suite(.timeLimit(.minutes(2))) struct TraceGyroTests {
    static let gyro = TraceGyroHeader(
        name: "bmi160", pairing: "same device", scale: SIMD3(repeating: 0.0010652),
        offset: SIMD3(0, 0, 0), mountMatrix: try! MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1"),
        mountMatrixSource: "sysfs in_anglvel_mount_matrix", samplingFrequencyHertz: 200)

    @Test func roundTripWithGyro() throws {
        let path = TraceTests.temporaryPath("gyro.trace")
        let header = TraceHeader(name: "bmi160", scale: SIMD3(repeating: 0.0023942), gyro: Self.gyro)
        #expect(header.version == 2)
        let writer = try TraceWriter(path: path, header: header)
        try writer.append(timestampNanoseconds: 5_000_000, raw: SIMD3(1, 2, 3), acceleration: SIMD3(0.1, -9.8, 0.3),
                          rotationRate: SIMD3(0.01, -0.25, 1.0 / 3), rawRotation: SIMD3(9, -234, 313))
        try writer.append(timestampNanoseconds: 10_000_000, raw: nil, acceleration: SIMD3(0.2, -9.7, 0.4),
                          rotationRate: SIMD3(-2.5e-7, 0, 4))
        try writer.append(timestampNanoseconds: 15_000_000, raw: nil, acceleration: SIMD3(0.3, -9.6, 0.5))
        try writer.close()

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("tiltd-trace 2\n"))
        #expect(text.contains("\n# gyro-mount-matrix: 0, 1, 0; 1, 0, 0; 0, 0, 1\n"))
        #expect(text.contains("\ns 5000000 0.1 -9.8 0.3 1 2 3 w 0.01 -0.25 "))

        let recording = try Recording.load(path: path)
        #expect(recording.header == header)
        #expect(recording.readings.map(\.rotationRate) == [SIMD3(0.01, -0.25, 1.0 / 3), SIMD3(-2.5e-7, 0, 4), nil])
        #expect(recording.readings.map(\.acceleration) == [SIMD3(0.1, -9.8, 0.3), SIMD3(0.2, -9.7, 0.4),
                                                           SIMD3(0.3, -9.6, 0.5)])
        #expect(recording.raw.count == 3 && recording.raw[0] == SIMD3(1, 2, 3) && recording.raw[1].x.isNaN)
        #expect(recording.rawRotation.count == 3 && recording.rawRotation[0] == SIMD3(9, -234, 313))
        #expect(recording.rawRotation[1].x.isNaN && recording.rawRotation[2].x.isNaN)
    }

    @Test func withoutGyroTheWriterStaysAtVersion1AndRefusesRates() throws {
        let path = TraceTests.temporaryPath("plain.trace")
        let writer = try TraceWriter(path: path, header: TraceHeader(name: "accel"))
        #expect(writer.version == 1)
        #expect(throws: TraceError.gyroInVersion1(path: path)) {
            try writer.append(timestampNanoseconds: 1, raw: nil, acceleration: SIMD3(0, 0, 9.81),
                              rotationRate: .zero)
        }
        try writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "tiltd-trace 1\n# name: accel\n")
    }

    @Test func version1ReadsExactlyAsBefore() throws {
        // In format 1 a "w" is not a gyro marker: it is a bad raw value, as it always was,
        // and gyro-like header keys are ordinary extra keys.
        let bad = TraceTests.write("tiltd-trace 1\ns 1 0 0 9.81 w 1 2 3\n")
        #expect(throws: TraceError.malformed(path: bad, line: 2, problem:
            "the raw values after the acceleration must be three numbers; the line is \"s 1 0 0 9.81 w 1 2 3\"")) {
            try Recording.load(path: bad)
        }
        let keys = TraceTests.write("tiltd-trace 1\n# gyro-name: x\ns 1 0 0 9.81\n")
        let recording = try Recording.load(path: keys)
        #expect(recording.header?.gyro == nil && recording.header?.extra == ["gyro-name": "x"])
        #expect(recording.readings == [Reading(timestampNanoseconds: 1, acceleration: SIMD3(0, 0, 9.81))])
    }

    @Test func malformedGyroGroupNamesFileAndLine() throws {
        let path = TraceTests.write("tiltd-trace 2\ns 1 0 0 9.81\ns 2 0 0 9.81 w 0.1 zero 0\n")
        let error = #expect(throws: TraceError.self) { try Recording.load(path: path) }
        #expect(error?.description.hasPrefix("\(path):3: expected \"w <gx> <gy> <gz>") == true)
        let badScale = TraceTests.write("tiltd-trace 2\n# gyro-scale: a b c\ns 1 0 0 9.81\n")
        #expect(throws: TraceError.malformed(path: badScale, line: 2, problem:
            "gyro-scale needs one or three numbers (x y z), got \"a b c\"; the line is \"# gyro-scale: a b c\"")) {
            try Recording.load(path: badScale)
        }
    }

    @Test func csvWithGyroInRadiansAndDegrees() throws {
        let text = "time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z\n0,0,0,1,0.5,-1,0\n0.01,0,0,1,180,90,-45\n"
        let path = TraceTests.write(text, name: "gyro.csv")
        let radians = try Recording.load(path: path, units: .g)
        #expect(radians.readings[0].rotationRate == SIMD3(0.5, -1, 0))
        #expect(radians.readings[0].acceleration == SIMD3(0, 0, 9.80665))
        let degrees = try Recording.load(path: path, gyroUnits: .degreesPerSecond)
        #expect(degrees.readings[1].rotationRate == SIMD3(.pi, .pi / 2, -.pi / 4))
        let short = TraceTests.write("time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z\n0,0,0,1,0.5,-1\n1,0,0,1,0,0,0\n",
                                     name: "short.csv")
        #expect(throws: TraceError.malformed(path: short, line: 2, problem:
            "expected seven numbers time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z; the line is \"0,0,0,1,0.5,-1\"")) {
            try Recording.load(path: short)
        }
        let plain = TraceTests.write("time_s,accel_x,accel_y,accel_z\n0,0,0,1\n", name: "plain.csv")
        #expect(try Recording.load(path: plain).readings[0].rotationRate == nil)
    }
}
