import Foundation
import SamplePath
import StateSocket
import Testing
import TiltdTestSupport

/// `--listen unix:PATH`, `--socket-group`, `--count` and `--duration`,
/// checked before anything listens or opens.
@Suite(.timeLimit(.minutes(15))) struct ListenSettingsTests {
    @Test func unixAddressesAreParsed() throws {
        #expect(try ListenAddress(parsing: "unix:/run/tiltd/tiltd.sock") == ListenAddress(path: "/run/tiltd/tiltd.sock"))
        #expect(throws: ListenAddress.Invalid.notUnix) { try ListenAddress(parsing: "tcp:127.0.0.1:9000") }
        #expect(throws: ListenAddress.Invalid.noPath) { try ListenAddress(parsing: "unix:") }
    }

    @Test func aPathTooLongIsRefused() throws {
        let long = "/tmp/" + String(repeating: "s", count: ListenAddress.maximumPathBytes)
        #expect(throws: ListenAddress.Invalid.pathTooLong(path: long, maximumBytes: ListenAddress.maximumPathBytes)) {
            try ListenAddress(path: long).checkPlace()
        }
        #expect(throws: SocketListenSettings.Invalid.address(.pathTooLong(path: long,
                                                                          maximumBytes: ListenAddress.maximumPathBytes))) {
            try SocketListenSettings(address: ListenAddress(path: long))
        }
    }

    @Test func theGroupMustExist() throws {
        let dir = try TestPaths.temporaryDirectory()
        #expect(throws: SocketListenSettings.Invalid.noSuchGroup("no-such-group-here")) {
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
        #expect(throws: DeviceRunLimits.Invalid.count(0)) {
            try DeviceRunLimits.check(count: 0, duration: nil)
        }
        #expect(throws: DeviceRunLimits.Invalid.duration(-1)) { try DeviceRunLimits.check(count: nil, duration: -1) }
        #expect {
            try DeviceRunLimits.check(count: nil, duration: .nan)
        } throws: { error in
            guard case .duration(let duration)? = error as? DeviceRunLimits.Invalid else { return false }
            return duration.isNaN
        }
    }
}
