import DSU
import Motion
import Wording

extension DSUAddress.Invalid: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .badPort:
            "expected PORT or HOST:PORT with a port from 0 to 65535 (0: any free one, named in the log), "
                + "for example \(DSUProtocol.defaultPort) or 127.0.0.1:\(DSUProtocol.defaultPort)"
        case .notAnIPAddress(let host):
            "\(host) is not an IP address; give one, for example "
                + "127.0.0.1 (this machine only) or the address of the interface to serve on"
        }
    }
}

extension DSUServer.Failure: SettingRefusal {
    public var message: SettingMessage {
        switch self {
        case .socket(let address, let step, let reason):
            let (what, hint): (String, String?) = switch step {
            case .makeSocket: ("cannot make a UDP socket", nil)
            case .bindPortInUse: ("cannot bind it", "another DSU server (tiltd, evdevhook2, an emulator's own) holds "
                                    + "the port; stop it or choose another port")
            case .bind: ("cannot bind it", "give an address of this machine, or a bare port for 127.0.0.1")
            case .duplicate: ("cannot duplicate its descriptor", nil)
            }
            return "\(.dsu) \(address): \(what): \(reason)" + (hint.map { "; \($0)" } ?? "")
        case .serve(let address, let reason): return "\(.dsu) \(address): cannot serve: \(reason)"
        }
    }
}
