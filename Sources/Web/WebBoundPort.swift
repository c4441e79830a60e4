import Synchronization

/// The port the server listens on, once bound (port 0 picks one): the
/// origin check needs it and `WebServer.listeningPort` reports it.
final class WebBoundPort: Sendable {
    private let value = Mutex<Int?>(nil)

    var port: Int? { value.withLock { $0 } }

    func set(_ port: Int?) { value.withLock { $0 = port } }
}
