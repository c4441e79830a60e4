import Foundation

/// A flag set once, read from another thread.
final class WebTestFlag: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
