import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Devices
import Motion
import Wording

@Suite(.timeLimit(.minutes(2))) struct IIOErrorTests {
    @Test func permissionErrorsNameTheUdevRuleAndGroup() {
        let error = IIOError("enabling the buffer", on: "iio:device0 (accel_3d)", errno: Errno(EACCES))
        #expect(error.description.hasPrefix("enabling the buffer on iio:device0 (accel_3d) failed: "))
        #expect(error.description.contains("EACCES"))
        #expect(error.description.contains("udev/70-tiltd.rules"))
        #expect(error.description.contains("group tiltd"))
    }

    @Test func busyTimeoutAndVanishedDevicesSayWhatToDo() {
        #expect(IIOError.advice(for: Errno(EBUSY)).contains("iio-sensor-proxy"))
        #expect(IIOError.advice(for: Errno(EBUSY)).contains("\(Setting.mode) poll"))
        #expect(IIOError.advice(for: Errno(ETIMEDOUT)).contains("trigger"))
        #expect(IIOError.advice(for: Errno(ENODEV)).contains("gone"))
        #expect(Errno(ETIMEDOUT).description.contains("(ETIMEDOUT)"))
        #expect(Errno(ENOENT).isGone && Errno(EPERM).isPermission && !Errno(EBUSY).isGone)
    }

    @Test func unknownUriSchemesAreRefusedWithTheValidForms() {
        do {
            _ = try IIOContext(uri: "bogus:thing")
            Issue.record("expected an error for an unknown scheme")
        } catch let error as IIOError {
            #expect(error.target == "bogus:thing")
            #expect(error.fix.contains("ip:HOST[:PORT]"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unreachableIiodIsExplained() {
        // Port 1 on loopback: nothing listens there, so the connection is refused.
        do {
            _ = try IIOContext(uri: "ip:127.0.0.1:1")
            Issue.record("expected an unreachable iiod")
        } catch let error as IIOError {
            #expect(error.description.contains("ip:127.0.0.1:1"))
            #expect(error.fix.contains("iiod"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func convertsRawCountsThenAppliesTheMountMatrix() throws {
        var info = IIOSelectionTests.device("iio:device0")
        info.scale = SIMD3(0.5, 0.25, 2)
        info.offset = SIMD3(1, -1, 0)
        info.mountMatrix = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        // (raw + offset) × scale = (2, 1, 6); M·v = (−1, 2, 6).
        #expect(info.acceleration(raw: SIMD3(3, 5, 3)) == SIMD3(-1, 2, 6))
    }
}
