@testable import Devices
import Glibc
import Motion
import Synchronization
import Testing

/// IIO device logic over `FakeIIO`, in-process: the fallback from buffered to
/// polled capture, reopening after a fault, and gyroscope pairing.
@Suite(.timeLimit(.minutes(2))) struct IIODeviceLogicTests {
    static func open(_ fake: FakeIIO, _ configuration: CaptureConfiguration = CaptureConfiguration(uri: "fake:"))
        throws -> (CaptureSession, [String]) {
        var notices: [String] = []
        let session = try CaptureSession(configuration: configuration, backend: fake) { notices.append("\($0.message)") }
        return (session, notices)
    }

    /// The first sample the session delivers.
    static func firstSample(_ session: CaptureSession) throws -> CapturedSample? {
        var first: CapturedSample?
        _ = try session.run(shouldStop: { first != nil }) { sample in
            first = sample
            return false
        }
        return first
    }

    @Test func aWorkingBufferIsUsed() throws {
        let fake = FakeIIO([FakeIIO.accelerometer("iio:device0", name: "accel_3d")])
        let (session, notices) = try Self.open(fake)
        #expect(session.status.mode == .buffer)
        #expect(notices.isEmpty)
        let sample = try #require(try Self.firstSample(session))
        #expect(sample.raw == SIMD3(1, 2, 3))
        #expect(sample.reading.timestampNanoseconds == 1_000_000, "the scan's own timestamp")
        session.close()
    }

    @Test func aRefusedBufferFallsBackToPolling() throws {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "accel_3d")
        accelerometer.refuseBuffer = Errno(EBUSY)
        let (session, notices) = try Self.open(FakeIIO([accelerometer]))
        #expect(session.status.mode == .poll)
        let refusal = IIOError("enabling the buffer", on: "iio:device0 (accel_3d)", errno: Errno(EBUSY))
        #expect(notices == ["buffered capture of iio:device0 (accel_3d) unavailable (\(refusal)); "
            + "polling at 100 Hz instead"])
        #expect(try Self.firstSample(session)?.raw == SIMD3(1, 2, 3))
    }

    @Test func aSilentBufferFallsBackToPollingAndSaysWhatToCheck() throws {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "accel_3d")
        accelerometer.delivers = false
        let (session, notices) = try Self.open(FakeIIO([accelerometer]))
        #expect(session.status.mode == .poll)
        #expect(notices == ["buffered capture of iio:device0 (accel_3d) unavailable (its buffer delivered nothing "
            + "for 0.5 s: check trigger/current_trigger and sampling_frequency); polling at 100 Hz instead"])
    }

    @Test func aRefusedBufferIsAnErrorInBufferMode() throws {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "accel_3d")
        accelerometer.refuseBuffer = Errno(EBUSY)
        #expect(throws: IIOError.self) { try Self.open(FakeIIO([accelerometer]), CaptureConfiguration(uri: "fake:", mode: .buffer)) }
    }

    @Test func aGyroOnTheSameDeviceSharesTheScan() throws {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "lsm6dsx", extra: FakeIIO.gyroAxes(from: 4))
        let (session, _) = try Self.open(FakeIIO([accelerometer]))
        #expect(session.status.gyro?.pairing == .sameDevice)
        let sample = try #require(try Self.firstSample(session))
        #expect(sample.rawRotation == SIMD3(10, 20, 30), "read from the same scan")
    }

    /// On a shared device the bare `scale` is the accelerometer's: the gyro
    /// counts only its own channels' scale.
    @Test func aGyroOnTheSameDeviceIgnoresTheBareScale() throws {
        let gyro = FakeIIO.gyroAxes(from: 4)
        gyro[0].attributes["scale"] = nil
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "lsm6dsx", extra: gyro)
        accelerometer.attributes["scale"] = "0.5"
        let (session, _) = try Self.open(FakeIIO([accelerometer]))
        let info = try #require(session.status.gyro)
        #expect(info.scale == SIMD3(1, 0.01, 0.01))
        #expect(info.scaleSource == "in_anglvel_y_scale, in_anglvel_z_scale")
    }

    @Test func aSiblingGyroIsPairedByName() throws {
        let fake = FakeIIO([FakeIIO.accelerometer("iio:device0", name: "lsm6dsx_accel"),
                            FakeIIO.Device("iio:device1", name: "bmi160_gyro", channels: FakeIIO.gyroAxes()),
                            FakeIIO.Device("iio:device2", name: "lsm6dsx_gyro", channels: FakeIIO.gyroAxes())])
        let (session, _) = try Self.open(fake, CaptureConfiguration(uri: "fake:", mode: .poll))
        #expect(session.status.gyro?.id == "iio:device2")
        #expect(session.status.gyro?.pairing == .sibling)
        #expect(try Self.firstSample(session)?.rawRotation == SIMD3(10, 20, 30), "polled after the accelerometer")
    }

    @Test func theOnlyHubGyroOffALocalContextIsPaired() throws {
        let fake = FakeIIO([FakeIIO.accelerometer("iio:device0", name: "accel_3d"),
                            FakeIIO.Device("iio:device1", name: "gyro_3d", channels: FakeIIO.gyroAxes())])
        let (session, _) = try Self.open(fake, CaptureConfiguration(uri: "fake:", mode: .poll))
        #expect(session.status.gyro?.pairing == .sameHub)
    }

    @Test func aGyroElsewhereIsNotPaired() throws {
        let fake = FakeIIO([FakeIIO.accelerometer("iio:device0", name: "kxcj9"),
                            FakeIIO.Device("iio:device1", name: "bmi160_gyro", channels: FakeIIO.gyroAxes())])
        let (session, _) = try Self.open(fake, CaptureConfiguration(uri: "fake:", mode: .poll))
        #expect(session.status.gyro == nil)
        #expect(try Self.firstSample(session)?.rawRotation == nil)
    }

    @Test func noGyroLeavesThePairedGyroUnread() throws {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "lsm6dsx", extra: FakeIIO.gyroAxes(from: 4))
        let (session, _) = try Self.open(FakeIIO([accelerometer]), CaptureConfiguration(uri: "fake:", gyroEnabled: false))
        #expect(session.status.gyro == nil)
    }

    /// A device that vanishes mid-run is reported, waited for with backoff
    /// (stepped here, never slept) and resumed when it is back.
    @Test func aLostDeviceIsReopenedWithBackoff() async throws {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "accel_3d", rateHertz: "200")
        accelerometer.readsBeforeGone = 6  // two samples of x, y, z
        let fake = FakeIIO([accelerometer])
        fake.failuresWhileGone = 2
        let pauses = Mutex<[Double]>([])
        let configuration = CaptureConfiguration(uri: "fake:", mode: .poll, retryInitialSeconds: 0.25,
                                                 retryMaximumSeconds: 4)
        let loop = CaptureLoop(IIOCaptureDevice(configuration: configuration, backend: fake), pause: { seconds, _ in pauses.withLock { $0.append(seconds) } })
        let events = Mutex<[String]>([])
        try loop.start { event in
            events.withLock { events in
                switch event {
                case .opened(let status): events.append("opened \(status.mode.rawValue)")
                case .statusChanged: events.append("status")
                case .sample: events.append("sample")
                case .notice(let diagnostic): events.append("\(diagnostic.message)")
                case .fault(let message, _): events.append("fault: \(message)")
                case .batchEnd: break
                }
                return events.count { $0 == "sample" } < 3
            }
        }
        await loop.finished()
        let gone = IIOError("reading in_accel_x_raw", on: "iio:device0 (accel_3d)", errno: Errno(ENODEV))
        let missing = IIOError("opening the IIO context", on: "fake:", errno: Errno(ENOENT),
                               fix: "use local:, ip:HOST[:PORT], usb:BUS.DEV.INTF or serial:PORT")
        #expect(events.withLock { $0 } == [
            "opened poll", "sample", "sample",
            "fault: lost iio:device0 (accel_3d): \(gone); retrying with backoff",
            "still cannot open the device: \(missing)",
            "iio:device0 (accel_3d) is back: resuming (poll, 200 Hz)", "opened poll", "sample",
        ])
        #expect(pauses.withLock { $0 } == [0.25, 0.5, 1])
        #expect(fake.contextsCreated == 2)
    }
}
