import Foundation
import Glibc
import StateSocket
import Testing
import TiltdTestSupport

/// The socket file: mode, a stale file replaced, a live one or a non-socket
/// left alone with a clear error.
@Suite(.timeLimit(.minutes(15))) struct SocketFileTests {
    @Test func socketIsCreatedMode0660() throws {
        let dir = try TestPaths.temporaryDirectory()
        let server = try UnixSocketServer(path: dir + "/s.sock")
        defer { server.close() }
        var info = stat()
        #expect(lstat(server.path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o660)
    }

    @Test func socketFileGetsTheRequestedGroup() throws {
        let dir = try TestPaths.temporaryDirectory()
        // "daemon" exists on every Debian system; root may give files any group.
        let daemon = try #require(getgrnam("daemon")?.pointee.gr_gid)
        let server = try UnixSocketServer(path: dir + "/s.sock", group: daemon)
        defer { server.close() }
        var info = stat()
        #expect(lstat(server.path, &info) == 0)
        #expect(info.st_gid == daemon)
        #expect(info.st_mode & 0o777 == 0o660)
    }

    @Test func staleSocketFileFromACrashIsReplaced() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let path = dir + "/s.sock"
            // A bound socket whose process went away: the file stays, nobody listens.
            let crashed = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(crashed, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            #expect(bound == 0)
            close(crashed)
            #expect(access(path, F_OK) == 0)

            let server = try UnixSocketServer(path: path)
            defer { server.close() }
            let client = try SocketTestClient(path: path)
            server.emit(TestStates.state(5))
            #expect(client.readLine() == TestStates.line(5))
        }
    }

    @Test func liveSocketIsNotStolen() async throws {
        try await TestThreadExecutor.offPool {
            let dir = try TestPaths.temporaryDirectory()
            let path = dir + "/s.sock"
            let first = try UnixSocketServer(path: path)
            defer { first.close() }
            #expect(throws: UnixSocketError.inUse(path: path)) {
                _ = try UnixSocketServer(path: path)
            }
            // The first server still owns the path and serves.
            let client = try SocketTestClient(path: path)
            first.emit(TestStates.state(6))
            #expect(client.readLine() == TestStates.line(6))
        }
    }

    @Test func regularFileIsNeverReplaced() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/notes.txt"
        try "keep me\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: UnixSocketError.notASocket(path: path)) {
            _ = try UnixSocketServer(path: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }

    @Test func closeLeavesASuccessorsSocketAlone() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/s.sock"
        let old = try UnixSocketServer(path: path)
        // Someone removed our files (rm /run/tiltd/*) and a new server took the path.
        unlink(path)
        unlink(path + ".lock")
        let successor = try UnixSocketServer(path: path)
        defer { successor.close() }
        old.close()
        #expect(access(path, F_OK) == 0, "closing the old server must not delete the successor's socket")
        #expect(access(path + ".lock", F_OK) == 0, "nor its lock file")
        // The successor still guards the path.
        #expect(throws: UnixSocketError.inUse(path: path)) { _ = try UnixSocketServer(path: path) }
    }

    // A lock file other users can open is a lock they can
    // hold, and so a way to keep tiltd from starting.

    @Test func lockFileIsOnlyItsOwners() throws {
        let dir = try TestPaths.temporaryDirectory()
        let server = try UnixSocketServer(path: dir + "/s.sock")
        defer { server.close() }
        var info = stat()
        #expect(lstat(server.path + ".lock", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_uid == geteuid())
    }

    @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func aLockFileSomeoneElseMadeIsRefused() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/s.sock"
        // Another user pre-creates the lock file in a shared directory.
        let fd = open(path + ".lock", O_WRONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        close(fd)
        let nobody = try #require(getpwnam("nobody")?.pointee.pw_uid)
        #expect(chown(path + ".lock", nobody, gid_t.max) == 0)
        #expect(throws: UnixSocketError.foreignLockFile(path: path + ".lock", owner: nobody)) {
            _ = try UnixSocketServer(path: path)
        }
        #expect(access(path, F_OK) != 0, "no socket was made")
    }

    @Test func aSymbolicLinkAtTheLockPathIsNotFollowed() throws {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir + "/s.sock"
        let target = dir + "/elsewhere"
        #expect(symlink(target, path + ".lock") == 0)
        #expect(throws: UnixSocketError.self) { _ = try UnixSocketServer(path: path) }
        #expect(access(target, F_OK) != 0, "the link's target was created")
    }
}
