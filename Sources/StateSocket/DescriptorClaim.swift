import Platform
import Synchronization

/// A descriptor that one of several parties will take over, or else close:
/// the broadcaster's copy of a client socket, which the client's handler
/// takes when the channel becomes active, and which is closed instead when
/// the channel never gets that far (registration failed, handler removed).
final class DescriptorClaim: Sendable {
    private let descriptor: Int32
    private let settled = Atomic<Bool>(false)

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The descriptor, now the caller's to close; nil when already taken or closed.
    func take() -> Int32? {
        settled.exchange(true, ordering: .acquiringAndReleasing) ? nil : descriptor
    }

    /// Closes the descriptor unless it was taken; idempotent.
    func closeUnlessTaken() {
        if let descriptor = take() { Posix.close(descriptor) }
    }
}
