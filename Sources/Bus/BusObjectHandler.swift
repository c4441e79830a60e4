import CTiltBus

/// What an exported object answers: property values and method calls.
/// Called on the thread that runs the bus.
protocol BusObjectHandler: AnyObject {
    /// The value of property `name`, or nil if it has none to give.
    func busProperty(_ name: String) -> BusValue?
    /// Handles method `member` called by `sender` (a unique name) of
    /// `user` (its effective uid, nil when the bus would not say).
    func busMethod(_ member: String, sender: String, user: UInt32?) -> BusMethodResult
}

/// The answer to a method call: an empty reply or a D-Bus error.
enum BusMethodResult {
    case done
    case failed(name: String, message: String)
}

/// Holds an exported object's handler weakly (the owner outlives the slot
/// only until it stops) and the C table that points back here.
final class HandlerBox {
    weak var handler: (any BusObjectHandler)?
    var table: UnsafeMutablePointer<tiltbus_handler>?

    init(_ handler: any BusObjectHandler) { self.handler = handler }
    deinit { table?.deallocate() }
}

/// A signal callback, addressed by its pointer from C.
final class MessageBox {
    let body: (OpaquePointer?) -> Void
    init(_ body: @escaping (OpaquePointer?) -> Void) { self.body = body }
}
