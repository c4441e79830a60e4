import Glibc
import Logging
import Platform
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The one owner of tiltd's running services and its signals.
///
/// Runs the services (the socket server, the web server, a device capture, a
/// replay) in one swift-service-lifecycle `ServiceGroup`. SIGTERM, SIGINT and
/// SIGHUP start a graceful shutdown: the services stop in the reverse of the
/// order given, so a producer listed last stops first and the servers after
/// it still send its last states and then remove their files. When any
/// service ends (a `Setting.count` reached, a recording played), or fails, the
/// others are shut down the same way; services still running after
/// `gracefulShutdownSeconds` are cancelled.
///
/// The signals are trapped when the lifecycle is made, before the command
/// creates any file a signal must clean up (the socket): a signal that comes
/// before the services run waits in the sequence and stops them as soon as
/// they start, instead of killing the process and leaving the file behind.
///
/// SIGHUP, when it was ignored at start (`nohup`), is left ignored: tiltd
/// installs no handler for it, so it neither stops tiltd nor deletes
/// anything. SIGTERM and SIGINT are always handled, even when inherited as
/// ignored (a non-interactive shell starts `cmd &` with SIGINT ignored):
/// they are sent on purpose to stop tiltd, and a stop must clean up.
public struct Lifecycle: Sendable {
    /// How long the services get to stop on their own before they are
    /// cancelled: shutdown takes well under a second even while serving.
    public static let gracefulShutdownSeconds = 0.5

    private let signals: UnixSignalsSequence?
    /// The signal that stopped the services, once one has.
    private let received = SignalRecord()

    /// Traps SIGTERM, SIGINT, and SIGHUP unless it was ignored at start.
    public static func trappingSignals() async -> Lifecycle {
        let handled: [UnixSignal] = Posix.isIgnored(SIGHUP) ? [.sigterm, .sigint] : [.sigterm, .sigint, .sighup]
        return Lifecycle(signals: await UnixSignalsSequence(trapping: handled))
    }

    /// A lifecycle that no signal stops (for tests, which must not take over
    /// the test runner's signals).
    public static let withoutSignals = Lifecycle(signals: nil)

    private init(signals: UnixSignalsSequence?) {
        self.signals = signals
    }

    /// Runs `services` until they end or a signal stops them.
    ///
    /// - Parameters:
    ///   - services: started in this order, stopped in the reverse.
    ///   - logger: the group's own (debug) messages.
    /// - Throws: the first error a service threw (after the others stopped).
    public func run(_ services: [any Service], logger: Logger = TiltdLog.logger) async throws {
        // The watcher comes first, so it is the last asked to stop; when a
        // signal makes it return, the group shuts down the others.
        let watcher = signals.map { [SignalWatcher(signals: $0, received: received)] } ?? []
        let all: [any Service] = watcher + services
        let configurations = all.map {
            ServiceGroupConfiguration.ServiceConfiguration(
                service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup)
        }
        var configuration = ServiceGroupConfiguration(services: configurations, logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int(Self.gracefulShutdownSeconds * 1000))
        try await ServiceGroup(configuration: configuration).run()
    }
}

extension Lifecycle {
    /// The name of the signal that stopped the services ("SIGINT",
    /// "SIGTERM", "SIGHUP"), or nil when they ended on their own: a command
    /// that stops between units of work names it in its last message.
    public var stoppingSignalName: String? { received.name }
}

/// The first trapped signal, written by the watcher's task and read by the
/// command after (or while) the services stop.
private final class SignalRecord: Sendable {
    private let first = Mutex<String?>(nil)

    var name: String? { first.withLock { $0 } }

    func note(_ signal: UnixSignal) {
        first.withLock { name in if name == nil { name = "\(signal)" } }
    }
}

/// Ends (and so shuts the group down) at the first trapped signal, or when
/// the group shuts down for another reason.
private struct SignalWatcher: Service {
    let signals: UnixSignalsSequence
    let received: SignalRecord

    func run() async throws {
        let signals = self.signals
        // Iteration ends at the first signal, or when the group's shutdown
        // cancels it.
        await cancelWhenGracefulShutdown {
            for await signal in signals {
                received.note(signal)
                TiltdLog.logger.notice("\(signal): stopping")
                return
            }
        }
    }
}
