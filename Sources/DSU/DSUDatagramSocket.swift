import Glibc
import Motion
import NIOCore

/// The DSU server's UDP socket as the system calls see it: made and bound
/// here (so a port in use fails with its errno before anything starts), its
/// descriptor handed to SwiftNIO for the requests, and a duplicate kept to
/// send each sample's packets straight from the producer's thread without
/// blocking (a client whose buffer is full misses that packet, as UDP would).
struct DSUDatagramSocket {
    /// The descriptor data packets are sent on (a duplicate of NIO's).
    let sendDescriptor: Int32
    /// The descriptor NIO reads requests from and closes.
    let channelDescriptor: Int32

    /// Makes a non-blocking UDP socket bound to `address`.
    ///
    /// - Throws: `SettingError` naming `Setting.dsu`, the address and the
    ///   system's reason (a port in use, an address not on this machine).
    init(binding address: DSUAddress) throws(SettingError) {
        let socketAddress = address.socketAddress
        let domain = socketAddress.protocol.rawValue
        let fd = socket(domain, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.failure(address, "cannot make a UDP socket") }
        let bound = socketAddress.withSockAddr { pointer, size in bind(fd, pointer, socklen_t(size)) }
        guard bound == 0 else {
            let error = Self.failure(address, "cannot bind it", hint: errno == EADDRINUSE
                ? "another DSU server (tiltd, evdevhook2, an emulator's own) holds the port; stop it or choose another port"
                : "give an address of this machine, or a bare port for 127.0.0.1")
            Glibc.close(fd)
            throw error
        }
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            let error = Self.failure(address, "cannot duplicate its descriptor")
            Glibc.close(fd)
            throw error
        }
        channelDescriptor = fd
        sendDescriptor = duplicate
    }

    private static func failure(_ address: DSUAddress, _ what: String, hint: String? = nil) -> SettingError {
        let reason = String(cString: strerror(errno))
        return SettingError("\(.dsu) \(address): \(what): \(reason)" + (hint.map { "; \($0)" } ?? ""))
    }

    /// The port the socket is bound to (the one asked for, or the system's
    /// choice for port 0).
    var boundPort: UInt16 {
        var storage = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sendDescriptor, $0, &size) }
        }
        guard status == 0 else { return 0 }
        return withUnsafeBytes(of: storage) { bytes in
            // sin_port and sin6_port both sit at byte 2, big-endian.
            UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
    }

    /// Sends one datagram without blocking; a full buffer or a gone client
    /// loses it (the next sample follows within milliseconds).
    static func send(_ descriptor: Int32, _ bytes: [UInt8], to destination: Destination) {
        bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: destination.storage) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    _ = sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL),
                               pointer, destination.length)
                }
            }
        }
    }

    /// A subscriber's address, converted once for the system call that
    /// sends each sample to it (equal when the addresses are).
    struct Destination: Equatable, Sendable {
        let address: SocketAddress
        fileprivate let storage: sockaddr_storage
        fileprivate let length: socklen_t

        init(_ address: SocketAddress) {
            self.address = address
            var storage = sockaddr_storage()
            length = address.withSockAddr { pointer, size in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
                return socklen_t(size)
            }
            self.storage = storage
        }

        static func == (lhs: Destination, rhs: Destination) -> Bool { lhs.address == rhs.address }
    }

    /// Up to `count` bytes from the start of a small file (none when it cannot be read).
    static func readFirstBytes(_ path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
        return Array(bytes.prefix(max(0, read)))
    }

    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}
