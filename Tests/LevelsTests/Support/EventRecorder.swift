import Foundation

/// Collects values delivered on libpulse's thread so a test can wait for a
/// condition with a deadline (never a fixed sleep).
final class EventRecorder<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched with `lock` held.
    private let lock = NSLock()
    private var values: [Value] = []

    func add(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var snapshot: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    /// Polls every 10 ms until `condition` holds for the values so far;
    /// false when `timeoutSeconds` pass first.
    func wait(timeoutSeconds: Double = 30, until condition: ([Value]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if condition(snapshot) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(snapshot)
    }
}
