/// A Swift closure handed to libpulse as a callback's `userdata`.
///
/// `@unchecked Sendable`: libpulse calls `body` only on its mainloop thread
/// with the mainloop lock held, and `pending` is touched only there, so the
/// lock serialises every access.
final class PulseCallback<Value>: @unchecked Sendable {
    let body: (Value) -> Void
    /// A result collected over several calls (sink info arrives before its
    /// end-of-list call).
    var pending: Value?

    init(_ body: @escaping (Value) -> Void) { self.body = body }

    /// For callbacks that fire repeatedly: the owner keeps the object alive.
    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// For one-shot operations: the object keeps itself alive until
    /// `retained(_:)` takes the reference back in its completion.
    var retainedOpaque: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    static func unretained(_ userdata: UnsafeMutableRawPointer?) -> PulseCallback<Value> {
        Unmanaged<PulseCallback<Value>>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Takes back the reference `retainedOpaque` gave; call once.
    static func retained(_ userdata: UnsafeMutableRawPointer?) -> PulseCallback<Value> {
        Unmanaged<PulseCallback<Value>>.fromOpaque(userdata!).takeRetainedValue()
    }
}
