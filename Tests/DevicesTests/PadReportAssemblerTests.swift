@testable import Devices
import Motion
import Testing

@Suite(.timeLimit(.minutes(2))) struct PadReportAssemblerTests {
    /// A DualShock-4-like pad: 8192 units per g, 1024 units per °/s.
    static let ds4 = MotionPadInfo(
        node: "/dev/input/event5", name: "Wireless Controller Motion Sensors", vendor: 0x054C, product: 0x09CC,
        bus: 3,
        accelerometerAxes: (0...2).map { EvdevAxis(code: $0, minimum: -32768, maximum: 32767, fuzz: 16, flat: 0,
                                                   resolution: 8192) },
        gyroscopeAxes: (3...5).map { EvdevAxis(code: $0, minimum: -2_097_152, maximum: 2_097_152, fuzz: 16,
                                               flat: 0, resolution: 1024) },
        hasTimestamp: true)

    /// Tolerance for m/s² and rad/s: floating-point rounding only.
    static let tolerance = 1e-9

    @Test func unwrapsTheDeviceTimestampAcrossItsThirtyTwoBitWrap() {
        var assembler = PadReportAssembler(info: Self.ds4)
        // 4000 µs apart on the device, across 2³²; arrivals jittered by USB.
        let stamps: [UInt32] = [UInt32.max - 3999, 0, 4000]
        let arrivals: [Int64] = [5_000_000_000, 5_006_000_000, 5_007_000_000]
        let times = zip(stamps, arrivals).map { stamp, arrival -> Int64 in
            assembler.timestamp(Int32(bitPattern: stamp))
            return assembler.report(arrivalNanoseconds: arrival).reading.timestampNanoseconds
        }
        #expect(times == [5_000_000_000, 5_004_000_000, 5_008_000_000])
    }

    @Test func takesTheArrivalTimeWhenTheReportHasNoTimestamp() {
        var assembler = PadReportAssembler(info: Self.ds4)
        #expect(assembler.report(arrivalNanoseconds: 42).reading.timestampNanoseconds == 42)
        #expect(assembler.report(arrivalNanoseconds: 50).reading.timestampNanoseconds == 50)
        // Never backwards, even when arrivals are.
        #expect(assembler.report(arrivalNanoseconds: 45).reading.timestampNanoseconds == 51)
    }

    @Test func reanchorsAfterDroppedEventsWithoutGoingBackInTime() {
        var assembler = PadReportAssembler(info: Self.ds4)
        assembler.timestamp(1_000)
        #expect(assembler.report(arrivalNanoseconds: 1_000_000_000).reading.timestampNanoseconds == 1_000_000_000)
        assembler.dropped()
        // After SYN_DROPPED a counter that does not continue (it went back:
        // the device was reset) starts a new anchor at the report's arrival.
        assembler.timestamp(900)
        #expect(assembler.report(arrivalNanoseconds: 1_500_000_000).reading.timestampNanoseconds == 1_500_000_000)
        assembler.timestamp(4_900)
        #expect(assembler.report(arrivalNanoseconds: 1_600_000_000).reading.timestampNanoseconds == 1_504_000_000)
    }

    @Test func keepsDeviceTimeAcrossDroppedEventsWhenTheCounterContinues() {
        var assembler = PadReportAssembler(info: Self.ds4)
        assembler.timestamp(1_000)
        #expect(assembler.report(arrivalNanoseconds: 1_000_000_000).reading.timestampNanoseconds == 1_000_000_000)
        assembler.dropped()
        // 300 ms later on the device, read 900 ms later (a loaded machine):
        // the sample keeps the device's time, so the fusion's Δt across the
        // gap is the same however late the read.
        assembler.timestamp(301_000)
        #expect(assembler.report(arrivalNanoseconds: 1_900_000_000).reading.timestampNanoseconds == 1_300_000_000)
        assembler.timestamp(305_000)
        #expect(assembler.report(arrivalNanoseconds: 1_901_000_000).reading.timestampNanoseconds == 1_304_000_000)
    }

    @Test func aFirstReportReadLateDoesNotMakeAContinuingCounterLookReset() {
        var assembler = PadReportAssembler(info: Self.ds4)
        // The first report waited 300 ms in the queue (read late after
        // opening); the next ones, 10 ms apart on the device, were read as
        // they came, so they arrive earlier than the anchor predicts.
        assembler.timestamp(0)
        #expect(assembler.report(arrivalNanoseconds: 1_300_000_000).reading.timestampNanoseconds == 1_300_000_000)
        for step in 1...100 {
            assembler.timestamp(Int32(step * 10_000))
            _ = assembler.report(arrivalNanoseconds: 1_000_000_000 + Int64(step) * 10_000_000)
        }
        // The queue overflows; the counter goes on 10 ms later and the
        // report is read as it comes. The chain continues, 10 ms on.
        assembler.dropped()
        assembler.timestamp(1_010_000)
        #expect(assembler.report(arrivalNanoseconds: 2_010_000_000).reading.timestampNanoseconds == 2_310_000_000)
        assembler.timestamp(1_020_000)
        #expect(assembler.report(arrivalNanoseconds: 2_020_000_000).reading.timestampNanoseconds == 2_320_000_000)
    }

    @Test func convertsResolutionToMetresPerSecondSquaredAndRadiansPerSecondInTiltdsFrame() throws {
        var assembler = PadReportAssembler(info: Self.ds4)
        // Lying face up: +1 g out of the face (pad y); turning at 1 °/s about the pad's x (right).
        assembler.set(code: 1, value: 8192)
        assembler.set(code: 3, value: 1024)
        let sample = assembler.report(arrivalNanoseconds: 0)
        let acceleration = sample.reading.acceleration
        #expect(abs(acceleration.x) < Self.tolerance && abs(acceleration.y) < Self.tolerance)
        #expect(abs(acceleration.z - 9.80665) < Self.tolerance)
        let gyro = try #require(sample.angularVelocityRadiansPerSecond)
        #expect(abs(gyro.x + Double.pi / 180) < Self.tolerance)
        #expect(abs(gyro.y) < Self.tolerance && abs(gyro.z) < Self.tolerance)
        #expect(sample.rawAcceleration == SIMD3(0, 8192, 0))
        #expect(sample.rawAngularVelocity == SIMD3(1024, 0, 0))
    }

    @Test func keepsAxesThatDidNotChangeBetweenReports() {
        var assembler = PadReportAssembler(info: Self.ds4)
        assembler.set(code: 0, value: -8192)
        _ = assembler.report(arrivalNanoseconds: 0)
        assembler.set(code: 2, value: 100)
        #expect(assembler.report(arrivalNanoseconds: 1).rawAcceleration == SIMD3(-8192, 0, 100))
    }
}
