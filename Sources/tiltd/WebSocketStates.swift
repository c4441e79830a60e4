import FlyingFox
import Foundation
import Knob

/// `GET /ws`: the same states as `/events`, one JSON text message each,
/// coalesced to the newest for a slow reader. Messages from the browser are
/// read and ignored (the stream is read-only); the stream ends when the
/// browser closes it.
struct WebSocketStates: WSMessageHandler, Sendable {
    let feed: WebStateFeed
    let slot: WebStreamSlots.Slot

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (messages, continuation) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let task = Task { [feed, slot] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Drain what the browser sends so it cannot pile up.
                    for await _ in client {}
                }
                group.addTask {
                    var sequence: UInt64 = 0
                    var bytes: [UInt8] = []
                    while !Task.isCancelled {
                        guard let entry = await feed.next(after: sequence) else { continue }
                        sequence = entry.sequence
                        bytes.removeAll(keepingCapacity: true)
                        entry.state.appendJSONLine(to: &bytes)
                        bytes.removeLast()
                        continuation.yield(.text(String(decoding: bytes, as: UTF8.self)))
                    }
                }
                await group.next()  // the browser went away (or we were cancelled)
                group.cancelAll()
            }
            continuation.finish()
            _ = slot
        }
        continuation.onTermination = { _ in task.cancel() }
        return messages
    }
}
