import Motion
import Wording
/// An open libiio context, the one owner of its `iio_context` handle.
///
/// Every `iio_device`, `iio_channel` and `iio_buffer` handle tiltd holds
/// belongs to a context; they stay valid exactly as long as this object lives,
/// so whoever keeps them keeps the context too.
public final class IIOContext {
    /// The URI the context was created from ("local:", "ip:host:port", …).
    public let uri: String
    /// libiio's backend name ("local", "network", "usb").
    public let backend: String
    /// The libiio calls (a fake in tests).
    let iio: any IIOBackend
    let handle: IIOContextHandle

    /// Opens a context.
    ///
    /// - Parameter uri: `local:` (the default backend), `ip:HOST[:PORT]`
    ///   (iiod, port 30431), `usb:…`, `serial:…`.
    /// - Throws: `IIOError` naming the URI; unreachable iiod and unknown URI
    ///   schemes get their own advice.
    /// The corresponding C function is `iio_create_context_from_uri`.
    public convenience init(uri: String) throws {
        try self.init(uri: uri, backend: LibIIO())
    }

    init(uri: String, backend: any IIOBackend) throws {
        iio = backend
        switch backend.createContext(uri: uri) {
        case .success(let handle):
            self.handle = handle
        case .failure(let errno):
            throw IIOError("opening the IIO context", on: uri, errno: errno,
                           fix: IIOContext.advice(uri: uri, errno: errno))
        }
        self.uri = uri
        self.backend = backend.contextName(handle)
    }

    deinit {
        // The one place the context (and with it every device, channel and
        // buffer description it owns) is freed.
        iio.destroyContext(handle)
    }

    /// True for the local backend, where udev properties can be read.
    public var isLocal: Bool { backend == "local" }

    /// Sets the timeout of blocking operations such as a buffer refill.
    func setTimeout(seconds: Double) {
        _ = iio.setTimeout(handle, milliseconds: UInt32(max(1, (seconds * 1000).rounded())))
    }

    private static func advice(uri: String, errno: Errno) -> String {
        let known = ["local:", "ip:", "usb:", "serial:", "xml:"]
        if !known.contains(where: { uri.hasPrefix($0) }) {
            return "use local:, ip:HOST[:PORT], usb:BUS.DEV.INTF or serial:PORT"
        }
        if uri.hasPrefix("ip:") {
            return "check that iiod runs on that host and listens on that port (default 30431), "
                + "and that the address is right"
        }
        if uri.hasPrefix("local:") && errno.isGone {
            return "this machine has no IIO subsystem (/sys/bus/iio): load the sensor's driver "
                + "or read a remote one with \(Setting.uri) ip:HOST"
        }
        return IIOError.advice(for: errno)
    }
}
