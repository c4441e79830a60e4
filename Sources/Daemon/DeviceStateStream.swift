import Devices
import Motion
import SamplePath
import ServiceLifecycle
import StateSocket

/// `tiltd run`, wired: a device through the pipeline to stdout (one flushed
/// line per state), a `Setting.listen` socket and any other sink (the D-Bus
/// service), with the device open all the time or only while someone
/// wants states (`Setting.onDemand` socket clients, D-Bus claims; docs/devices.md).
///
/// Made in two steps because the D-Bus service reports its claims here and
/// must exist before the run: `init` starts the socket, the caller starts
/// its service with `claimsChanged` as the claim callback, then `run`.
public final class DeviceStateStream: Sendable {
    /// What `run` reads and where its states go.
    public struct Settings: Sendable {
        public var capture: CaptureConfiguration
        public var pipeline: PipelineConfiguration
        /// `Setting.record` `FILE`: the raw samples too, as a trace.
        public var tracePath: String?
        /// Stop after this many samples read, or this many seconds.
        public var count: Int?
        public var durationSeconds: Double?
        /// `Setting.listen`: serve the states on a Unix socket too.
        public var listen: SocketListenSettings?
        /// `Setting.onDemand`: the device is open only while a socket client is connected.
        public var openWhileSocketClients: Bool
        /// tiltd's version, for the trace header.
        public var version: String

        public init(capture: CaptureConfiguration, pipeline: PipelineConfiguration, tracePath: String? = nil,
                    count: Int? = nil, durationSeconds: Double? = nil, listen: SocketListenSettings? = nil,
                    openWhileSocketClients: Bool = false, version: String) {
            self.capture = capture
            self.pipeline = pipeline
            self.tracePath = tracePath
            self.count = count
            self.durationSeconds = durationSeconds
            self.listen = listen
            self.openWhileSocketClients = openWhileSocketClients
            self.version = version
        }
    }

    private let settings: Settings
    private let onDemand: ListenOnDemand?
    private let demand = DemandCount()
    /// What the consumers need from the capture's pace (DSU subscribers).
    private let captureDemand = CaptureDemand()
    private let socket: UnixSocketServer?

    /// Starts the socket server, if `settings` asks for one.
    ///
    /// - Parameter claimed: claims will be reported with `claimsChanged`;
    ///   the device then opens only while someone wants states. Whenever the
    ///   device opens on demand (`claimed` or `openWhileSocketClients`),
    ///   every consumer's clients count alike: D-Bus claims, socket clients
    ///   and DSU subscribers.
    /// - Throws: the socket's `UnixSocketError`.
    public init(_ settings: Settings, claimed: Bool) throws {
        self.settings = settings
        onDemand = settings.openWhileSocketClients || claimed ? ListenOnDemand() : nil
        let demand = self.demand, clientsCount = onDemand != nil
        socket = try settings.listen?.startServer { count in if clientsCount { demand.socketClients(count) } }
    }

    /// Reports the number of D-Bus claims (on any thread).
    public func claimsChanged(_ count: Int) { demand.busClaims(count) }

    /// Reports the number of DSU clients (on any thread); they count
    /// whenever the device opens on demand, and while there is one the
    /// capture reads one scan per wake-up (emulators time motion by packet
    /// arrival).
    public func dsuClientsChanged(_ count: Int) {
        captureDemand.perSampleClientsChanged(count)
        if onDemand != nil { demand.set(.dsu, count) }
    }

    /// Reads until `count`, `durationSeconds` or a signal.
    ///
    /// - Parameters:
    ///   - sink: another consumer of the states (the D-Bus service).
    ///   - service: that consumer's service, stopped after the run.
    ///   - dsu: the DSU server (`Setting.dsu`), a consumer of every sample.
    public func run(under lifecycle: Lifecycle, alsoTo sink: (any StateSink)? = nil,
                    service: (any Service)? = nil, dsu: (any StateSink & Service)? = nil) async throws {
        let stdout = StdoutSink(flushEachLine: true)
        let sinks: [any StateSink] = [stdout] + [socket as (any StateSink)?, sink, dsu].compactMap { $0 }
        let sampleRun = SampleRun(configuration: settings.pipeline, sink: sinks.count == 1 ? stdout : StateHub(sinks),
                                  reporter: DiagnosticReporter(subject: nil))
        let run = DeviceRun(capture: settings.capture, sampleRun: sampleRun, tracePath: settings.tracePath,
                            count: settings.count, duration: settings.durationSeconds,
                            openAtStart: onDemand == nil, version: settings.version, demand: captureDemand)
        let socket = self.socket, demand = self.demand, onDemand = self.onDemand
        // Listed before the run, the socket and the other service stop after
        // it: clients and claimants get the last states.
        let services: [(any Service)?] = [stdout.watch, socket, service, dsu, run]
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                if let onDemand {
                    let device = ListenOnDemand.Device(open: { try run.open() },
                                                       close: { await run.close() })
                    group.addTask { await onDemand.run(device, demand: demand, clock: ContinuousClock()) }
                }
                // The switch closes the device once the run is over.
                defer { group.cancelAll() }
                try await lifecycle.run(services.compactMap { $0 })
            }
        } catch {
            await stdout.close(waitingAtMost: StdoutSink.stopWait)
            throw error
        }
        await stdout.close(waitingAtMost: lifecycle.stoppingSignalName == nil ? StdoutSink.endWait : StdoutSink.stopWait)
    }

    /// Closes the socket and removes its file.
    public func close() { socket?.close() }
}
