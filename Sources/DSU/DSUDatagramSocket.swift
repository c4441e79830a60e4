import Glibc
import NIOCore

/// The DSU server's UDP socket as the system calls see it: made and bound
/// here (so a port in use fails with its errno before anything starts), its
/// descriptor handed to SwiftNIO for the requests, and a duplicate kept to
/// send each sample's packets straight from the producer's thread without
/// blocking (a client whose buffer is full misses that packet, as UDP would).
///
/// The socket is bound with SO_REUSEPORT so that each subscriber can have a
/// socket of its own on the same address and port, connected to it
/// (`connectedSocket`): a connected socket sends without a route lookup per
/// packet. Only sockets of the same user with the flag can share a port; a
/// first bind without it still fails while anything holds the port, so a
/// second server (tiltd's or another's) is refused as before.
struct DSUDatagramSocket {
    /// The descriptor data packets are sent on (a duplicate of NIO's).
    let sendDescriptor: Int32
    /// The descriptor NIO reads requests from and closes.
    let channelDescriptor: Int32

    /// Makes a non-blocking UDP socket bound to `address`.
    ///
    /// - Throws: `DSUServer.Failure` naming the address, the step and the
    ///   system's reason (a port in use, an address not on this machine).
    init(binding address: DSUAddress) throws(DSUServer.Failure) {
        // Is the port free (and which one does port 0 pick)? Asked without
        // SO_REUSEPORT, which any holder of the port refuses.
        let probe = try Self.bound(address, reusingPort: false)
        let port = Self.port(of: probe)
        Glibc.close(probe)
        let fd = try Self.bound(DSUAddress(host: address.host, port: port), reusingPort: true)
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            let error = Self.failure(address, .duplicate)
            Glibc.close(fd)
            throw error
        }
        channelDescriptor = fd
        sendDescriptor = duplicate
    }

    private static func bound(_ address: DSUAddress, reusingPort: Bool) throws(DSUServer.Failure) -> Int32 {
        let socketAddress = address.socketAddress
        guard let fd = makeSocket(socketAddress, reusingPort: reusingPort) else {
            throw Self.failure(address, .makeSocket)
        }
        let bound = socketAddress.withSockAddr { pointer, size in bind(fd, pointer, socklen_t(size)) }
        guard bound == 0 else {
            let error = Self.failure(address, errno == EADDRINUSE ? .bindPortInUse : .bind)
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    private static func makeSocket(_ address: SocketAddress, reusingPort: Bool) -> Int32? {
        let fd = socket(address.protocol.rawValue, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                            | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var on: Int32 = 1
        if reusingPort, setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            Glibc.close(fd)
            return nil
        }
        return fd
    }

    /// A socket on the server's own address and port (`served`), connected
    /// to one client: the kernel sends to it without a route lookup per
    /// packet, and delivers that client's requests to this socket rather
    /// than the server's. Nil when it cannot be made (the server then sends
    /// to that client from its own socket).
    static func connectedSocket(serving served: SocketAddress, to client: SocketAddress) -> Int32? {
        guard let fd = makeSocket(served, reusingPort: true) else { return nil }
        if case .v4 = served {
            // Don't fragment (a data packet is 100 bytes): the kernel then
            // numbers packets by counting, not by a random id each.
            var discover = Int32(IP_PMTUDISC_DO)
            _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MTU_DISCOVER, &discover, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = served.withSockAddr { pointer, size in bind(fd, pointer, socklen_t(size)) }
        let connected = bound == 0 && client.withSockAddr { pointer, size in connect(fd, pointer, socklen_t(size)) } == 0
        guard connected else {
            Glibc.close(fd)
            return nil
        }
        return fd
    }

    private static func failure(_ address: DSUAddress, _ step: DSUServer.Failure.Step) -> DSUServer.Failure {
        .socket(address: address, step: step, reason: String(cString: strerror(errno)))
    }

    /// The port the socket is bound to (the one asked for, or the system's
    /// choice for port 0).
    var boundPort: UInt16 { Self.port(of: sendDescriptor) }

    private static func port(of descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
        }
        guard status == 0 else { return 0 }
        return withUnsafeBytes(of: storage) { bytes in
            // sin_port and sin6_port both sit at byte 2, big-endian.
            UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
    }

    /// Sends one datagram without blocking; a full buffer or an
    /// unreachable network loses it (the next sample follows within
    /// milliseconds).
    ///
    /// - Returns: `.refused` when the client's port refused an earlier
    ///   packet (an ICMP port-unreachable came back to its connected
    ///   socket): nobody listens there, so the stream to it should stop;
    ///   `.dropped` for any other failure.
    static func send(_ descriptor: Int32, _ bytes: [UInt8], to destination: Destination) -> DSUDelivery {
        let flags = Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)
        let result = bytes.withUnsafeBytes { buffer in
            if let link = destination.link {
                return Glibc.send(link.sendDescriptor, buffer.baseAddress, buffer.count, flags)
            }
            return withUnsafePointer(to: destination.storage) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    sendto(descriptor, buffer.baseAddress, buffer.count, flags, pointer, destination.length)
                }
            }
        }
        if result >= 0 { return .sent }
        return errno == ECONNREFUSED ? .refused : .dropped
    }

    /// A subscriber's address, converted once for the system call that
    /// sends each sample to it, and its connected socket when it has one
    /// (equal when the addresses are).
    struct Destination: Equatable, Sendable {
        let address: SocketAddress
        fileprivate let storage: sockaddr_storage
        fileprivate let length: socklen_t
        /// The socket connected to this client, once made.
        let link: Link?

        /// The address as the log says it: `127.0.0.1:26761`, `[::1]:26761`.
        var text: String {
            guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
            return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
        }

        init(_ address: SocketAddress, link: Link? = nil) {
            self.address = address
            self.link = link
            var storage = sockaddr_storage()
            length = address.withSockAddr { pointer, size in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: size)) }
                return socklen_t(size)
            }
            self.storage = storage
        }

        static func == (lhs: Destination, rhs: Destination) -> Bool { lhs.address == rhs.address }
    }

    /// One subscriber's connected socket: a descriptor the producer sends
    /// on, and a duplicate SwiftNIO reads that client's requests from. Both
    /// close when the last `Destination` holding it goes (the subscriber
    /// dropped, the server closed), so no send can reach a reused descriptor.
    final class Link: Sendable {
        let sendDescriptor: Int32
        private let channel: EventLoopFuture<any Channel>

        init(sendDescriptor: Int32, channel: EventLoopFuture<any Channel>) {
            self.sendDescriptor = sendDescriptor
            self.channel = channel
        }

        deinit {
            Glibc.close(sendDescriptor)
            channel.whenSuccess { $0.close(promise: nil) }
        }
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

    /// Whether a datagram waits unread on `descriptor` (false once closed).
    static func hasDatagramWaiting(_ descriptor: Int32) -> Bool {
        guard descriptor >= 0 else { return false }
        var bytes: Int32 = 0
        // SIOCINQ (FIONREAD): the size of the next datagram, 0 when none.
        return ioctl(descriptor, UInt(FIONREAD), &bytes) == 0 && bytes > 0
    }

    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}
