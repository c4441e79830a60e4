/// A wait with a deadline: `body` returns true once what it waits for has
/// happened. It must end when its task is cancelled (an `AsyncStream`'s or
/// `NewestValue`'s `next` does), which happens when `seconds` pass first.
///
/// - Throws: `WaitTimeout` naming `what`, so a test that waits in vain
///   fails with what it waited for instead of hanging the run.
public func waitUntil(_ what: @autoclosure () -> String, within seconds: Double = 60,
                      _ body: @escaping @Sendable () async -> Bool) async throws {
    let reached = await withTaskGroup(of: Bool?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard reached == true else { throw WaitTimeout(description: "waited \(seconds) s for \(what())") }
}

public struct WaitTimeout: Error, CustomStringConvertible {
    public var description: String
}
