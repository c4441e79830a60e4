import Foundation

/// A value shared between a test and the threads it starts.
final class WebTestLocked<Value>: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads or changes the value under the lock.
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}

/// A flag set once, read from another thread.
final class WebTestFlag: Sendable {
    private let flag = WebTestLocked(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
