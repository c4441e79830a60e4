import Foundation
import Motion
import SamplePath
import StateSocket
import Testing
import TiltdTestSupport

/// `--listen unix:PATH`, `--socket-group`, `--count` and `--duration`,
/// checked before anything listens or opens.
@Suite(.timeLimit(.minutes(15))) struct ListenSettingsTests {
    @Test func unixAddressesAreParsed() throws {
        #expect(try ListenAddress(parsing: "unix:/run/tiltd/tiltd.sock") == ListenAddress(path: "/run/tiltd/tiltd.sock"))
        #expect(throws: SettingError(
            "expected unix:PATH, for example unix:/run/tiltd/tiltd.sock (only Unix sockets are served)")) {
            try ListenAddress(parsing: "tcp:127.0.0.1:9000")
        }
        #expect(throws: SettingError("expected a socket path after unix:, for example unix:/run/tiltd/tiltd.sock")) {
            try ListenAddress(parsing: "unix:")
        }
    }

    @Test func aPathTooLongIsRefused() throws {
        let long = "/tmp/" + String(repeating: "s", count: ListenAddress.maximumPathBytes)
        #expect(throws: SettingError("\(.listen) \(long): socket paths are limited to \(ListenAddress.maximumPathBytes) "
            + "bytes; choose a shorter path")) {
            try ListenAddress(path: long).checkPlace()
        }
    }

    @Test func theGroupMustExist() throws {
        let dir = try TestPaths.temporaryDirectory()
        #expect(throws: SettingError("\(.socketGroup) no-such-group-here: no such group; create it (see udev/tiltd.sysusers) "
            + "or leave the option out")) {
            try SocketListenSettings(address: ListenAddress(path: dir + "/s.sock"), groupName: "no-such-group-here")
        }
        let settings = try SocketListenSettings(address: ListenAddress(path: dir + "/s.sock"), groupName: "daemon")
        #expect(settings.groupID == getgrnam("daemon")?.pointee.gr_gid)
    }

    @Test func theSettingsStartAServerAtTheirPath() throws {
        let dir = try TestPaths.temporaryDirectory()
        let server = try SocketListenSettings(address: ListenAddress(path: dir + "/s.sock")).startServer()
        defer { server.close() }
        #expect(FileManager.default.fileExists(atPath: dir + "/s.sock"))
    }

    @Test func runLimitsMustBeAboveZero() throws {
        try DeviceRunLimits.check(count: 1, duration: 0.5)
        try DeviceRunLimits.check(count: nil, duration: nil)
        #expect(throws: SettingError("\(.count) 0: give a number of samples above 0")) {
            try DeviceRunLimits.check(count: 0, duration: nil)
        }
        #expect(throws: SettingError("\(.duration) nan: give a number of seconds above 0")) {
            try DeviceRunLimits.check(count: nil, duration: .nan)
        }
    }
}
