import Bus
import Devices
import DSU
import Motion
import SamplePath
import ServiceLifecycle
import StateSocket

/// `tiltd run`, wired: a device through the pipeline to stdout (one flushed
/// line per state), a `Setting.listen` socket, the D-Bus service
/// net.tiltd.Tilt (`Setting.dbus`) and a DSU server (`Setting.dsu`, its
/// battery from UPower), with the device open all the time or only while
/// someone wants states (`Setting.onDemand` socket clients, D-Bus claims;
/// docs/devices.md).
///
/// Made in two steps: `init` starts the socket and the D-Bus service (so a
/// path or a bus name that cannot be had fails before anything else), `run`
/// the DSU server and the device.
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
        /// `Setting.dbus`: own net.tiltd.Tilt on this bus too; the device then
        /// opens only while someone wants states.
        public var bus: BusAddress?
        /// `Setting.dsu`: serve the motion to emulators on this UDP address too.
        public var dsu: DSUAddress?
        /// tiltd's version, for the trace header.
        public var version: String

        public init(capture: CaptureConfiguration, pipeline: PipelineConfiguration, tracePath: String? = nil,
                    count: Int? = nil, durationSeconds: Double? = nil, listen: SocketListenSettings? = nil,
                    openWhileSocketClients: Bool = false, bus: BusAddress? = nil, dsu: DSUAddress? = nil,
                    version: String) {
            self.capture = capture
            self.pipeline = pipeline
            self.tracePath = tracePath
            self.count = count
            self.durationSeconds = durationSeconds
            self.listen = listen
            self.openWhileSocketClients = openWhileSocketClients
            self.bus = bus
            self.dsu = dsu
            self.version = version
        }
    }

    /// The D-Bus service could not own its name on the bus.
    public struct BusUnavailable: Error, CustomStringConvertible {
        public let bus: BusAddress
        public let underlying: any Error
        public var description: String { "\(underlying)" }
    }

    private let settings: Settings
    private let onDemand: ListenOnDemand?
    private let demand = DemandCount()
    /// What the consumers need from the capture's pace (DSU subscribers).
    private let captureDemand = CaptureDemand()
    private let socket: UnixSocketServer?
    private let service: TiltService?

    /// Starts the socket server and the D-Bus service, if `settings` asks
    /// for them. With the service the device opens only while someone wants
    /// states; whenever it opens on demand (`bus` or
    /// `openWhileSocketClients`), every consumer's clients count alike:
    /// D-Bus claims, socket clients and DSU subscribers.
    ///
    /// - Throws: the socket's `UnixSocketError`; `BusUnavailable` when the
    ///   bus or the name cannot be had.
    public init(_ settings: Settings) throws {
        self.settings = settings
        onDemand = settings.openWhileSocketClients || settings.bus != nil ? ListenOnDemand() : nil
        let demand = self.demand, clientsCount = onDemand != nil
        let socket = try settings.listen?.startServer { count in if clientsCount { demand.socketClients(count) } }
        self.socket = socket
        do {
            service = try settings.bus.map { bus in
                // HasAccelerometer, HasGyroscope and Device from a look at the device.
                let properties = TiltProperties.lookingAt(uri: settings.capture.uri, device: settings.capture.device,
                                                          gyro: settings.capture.gyroEnabled, report: { TiltdLog.log($0) })
                do {
                    return try TiltService(bus: bus, properties: properties,
                                           onClaimCountChanged: { count in demand.busClaims(count) },
                                           report: { TiltdLog.log($0) })
                } catch {
                    throw BusUnavailable(bus: bus, underlying: error)
                }
            }
        } catch {
            socket?.close()
            throw error
        }
    }

    /// Reports the number of DSU clients (on any thread); they count
    /// whenever the device opens on demand, and while there is one the
    /// capture reads one scan per wake-up (emulators time motion by packet
    /// arrival).
    private func dsuClientsChanged(_ count: Int) {
        captureDemand.perSampleClientsChanged(count)
        if onDemand != nil { demand.set(.dsu, count) }
    }

    /// Starts the DSU server, if the settings ask for one, then reads until
    /// `count`, `durationSeconds` or a signal.
    ///
    /// - Throws: the DSU server's bind error, the run's.
    public func run(under lifecycle: Lifecycle) async throws {
        var dsu: DSUServer?
        if let address = settings.dsu {
            dsu = try await DSUServer.startReportingBattery(on: address) { [self] count in dsuClientsChanged(count) }
        }
        defer { dsu?.close() }
        let stdout = StdoutSink(flushEachLine: true)
        let sinks: [any StateSink] = [stdout] + [socket as (any StateSink)?, service, dsu].compactMap { $0 }
        let sampleRun = SampleRun(configuration: settings.pipeline, sink: sinks.count == 1 ? stdout : StateHub(sinks),
                                  reporter: DiagnosticReporter(subject: nil))
        let run = DeviceRun(capture: settings.capture, sampleRun: sampleRun, tracePath: settings.tracePath,
                            count: settings.count, duration: settings.durationSeconds,
                            openAtStart: onDemand == nil, version: settings.version, demand: captureDemand)
        let socket = self.socket, demand = self.demand, onDemand = self.onDemand
        // Listed before the run, the socket and the other service stop after
        // it: clients and claimants get the last states.
        let services: [(any Service)?] = [stdout.watch, socket, service.map(TiltBusService.init), dsu, run]
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

    /// Closes the socket and removes its file, and leaves the bus.
    public func close() {
        socket?.close()
        service?.requestStop()
    }
}
