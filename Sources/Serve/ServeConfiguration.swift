import Devices
import Foundation
import Glibc
import Knob
import Motion
import SamplePath
import Web

/// Everything `tiltd serve` runs with. The command fills it from its
/// options; `init` checks it, so a bad value is refused in one line naming
/// the option before anything opens or listens; `ServeRun` runs it.
public struct ServeConfiguration: Sendable {
    /// Where the states come from.
    public enum Source: Sendable {
        /// A trace or CSV recording played in real time (looping or not).
        case replay(path: String, loop: Bool, units: CSVUnits, gyroUnits: GyroUnits)
        /// An accelerometer (the device options).
        case device(CaptureConfiguration)

        /// The recording's path, nil for a device: the subject of the run's warnings.
        public var replayPath: String? {
            if case let .replay(path, _, _, _) = self { return path }
            return nil
        }

        /// What `/healthz` and the announcement say the states come from.
        public var description: String {
            switch self {
            case let .replay(path, loop, _, _):
                return "replay \(path)" + (loop ? " (loop)" : "")
            case let .device(capture):
                return "device " + (capture.device ?? "display accelerometer") + " at " + capture.uri
            }
        }
    }

    /// The page's recording ring: its directory, length and caps (docs/controls.md).
    public struct Ring: Sendable, Equatable {
        /// Where the ring's traces are written.
        public var directory: String
        /// The longest recording, the ring's full circle.
        public var limitSeconds: Double
        /// The most finished traces kept in `directory` (older ones are deleted).
        public var keep: Int
        /// The most MiB the finished traces take together (the newest is kept whatever its size).
        public var maximumMebibytes: Int

        /// The values `keep` may take.
        public static let keepRange = 1...100_000
        /// The values `maximumMebibytes` may take.
        public static let maximumMebibytesRange = 1...1_048_576

        /// The ring's full circle when none is given.
        public static let defaultLimitSeconds = 45.0
        /// The values `limitSeconds` may take.
        public static let limitRange = 1.0...600.0

        /// Checks the limits; the directory is checked when serve starts
        /// (`checkDirectory()`), with every other output path's rule.
        ///
        /// - Throws: `Invalid` naming the limit out of its range.
        public init(directory: String, limitSeconds: Double = Ring.defaultLimitSeconds,
                    keep: Int = WebRingRecorder.defaultKeep,
                    maximumMebibytes: Int = WebRingRecorder.defaultMaximumMebibytes) throws(Invalid) {
            guard limitSeconds.isFinite, Self.limitRange.contains(limitSeconds) else {
                throw .limitSeconds(limitSeconds, range: Self.limitRange)
            }
            guard Self.keepRange.contains(keep) else { throw .keep(keep, range: Self.keepRange) }
            guard Self.maximumMebibytesRange.contains(maximumMebibytes) else {
                throw .maximumMebibytes(maximumMebibytes, range: Self.maximumMebibytesRange)
            }
            self.directory = directory
            self.limitSeconds = limitSeconds
            self.keep = keep
            self.maximumMebibytes = maximumMebibytes
        }

        /// Checks that the ring can create its traces in `directory`, or
        /// make it (`OutputPath`: its folder must exist).
        ///
        /// - Throws: `OutputPathError` naming the directory.
        public func checkDirectory() throws(OutputPathError) {
            try OutputPath.checkDirectory(directory, role: .recordingDirectory, purpose: "the recordings")
        }

        /// Makes `directory` unless it exists (after `checkDirectory()`).
        ///
        /// - Throws: `OutputPathError` naming the directory.
        public func makeDirectory() throws(OutputPathError) {
            try OutputPath.makeDirectory(directory, role: .recordingDirectory)
        }
    }

    /// Address, port, allowed host names and limits of the web server.
    public var server: WebServerConfiguration
    /// Side of the knob's layer images in pixels: the knob's size on the page.
    public var layerSizePixels: Int
    public var source: Source
    public var pipeline: PipelineConfiguration
    /// The LARSBar volume slider; without one of its options the page has none.
    public var slider: ServeSlider.Settings
    /// The recording ring, or nil: the page shows none.
    public var ring: Ring?
    /// The light's colour at start.
    public var light: LightColour
    /// Whether viewers may set the light's colour (otherwise the page only shows it).
    public var interactiveLight: Bool
    /// tiltd's version, for the headers of the ring's traces.
    public var version: String

    /// The layer sizes `layerSizePixels` may take.
    public static let layerSizeRange = 16...1024

    /// Checks the server's address and limits and the layer size.
    ///
    /// - Throws: `Invalid` naming the value and the values it may take.
    public init(server: WebServerConfiguration, layerSizePixels: Int = 256, source: Source,
                pipeline: PipelineConfiguration = PipelineConfiguration(), slider: ServeSlider.Settings,
                ring: Ring? = nil, light: LightColour = .white, interactiveLight: Bool = false,
                version: String) throws(Invalid) {
        try Self.check(server: server, layerSizePixels: layerSizePixels)
        self.server = server
        self.layerSizePixels = layerSizePixels
        self.source = source
        self.pipeline = pipeline
        self.slider = slider
        self.ring = ring
        self.light = light
        self.interactiveLight = interactiveLight
        self.version = version
    }

    /// Checks what the command line says about the server and the layers,
    /// before anything is opened.
    ///
    /// - Throws: `Invalid` naming the value and the values it may take.
    public static func check(server: WebServerConfiguration, layerSizePixels: Int) throws(Invalid) {
        var ipv4 = in_addr(), ipv6 = in6_addr()
        guard inet_pton(AF_INET, server.host, &ipv4) == 1 || inet_pton(AF_INET6, server.host, &ipv6) == 1 else {
            throw .hostNotAnIPAddress(server.host)
        }
        guard layerSizeRange.contains(layerSizePixels) else { throw .layerSize(layerSizePixels, range: layerSizeRange) }
        guard streamRange.contains(server.maxStreams) else { throw .maxStreams(server.maxStreams, range: streamRange) }
        if let perClient = server.maxStreamsPerClient, !(1...server.maxStreams).contains(perClient) {
            throw .maxStreamsPerClient(perClient, maxStreams: server.maxStreams)
        }
        if let maxConnections = server.maxConnections, !connectionRange.contains(maxConnections) {
            throw .maxConnections(maxConnections, range: connectionRange)
        }
        for name in server.allowedHosts where !WebHostAllowlist.isValidName(name) { throw .allowedHost(name) }
    }

    /// The values `WebServerConfiguration.maxStreams` may take.
    public static let streamRange = 1...1024
    /// The values `WebServerConfiguration.maxConnections` may take.
    public static let connectionRange = 1...65536

    /// A server, layer or ring value out of what `tiltd serve` can serve.
    public enum Invalid: Error, Sendable, Equatable {
        /// The host to bind is not an IPv4 or IPv6 literal.
        case hostNotAnIPAddress(String)
        case layerSize(Int, range: ClosedRange<Int>)
        case maxStreams(Int, range: ClosedRange<Int>)
        /// Streams per client above the streams in all (or below 1).
        case maxStreamsPerClient(Int, maxStreams: Int)
        case maxConnections(Int, range: ClosedRange<Int>)
        /// An allowed host name that is not a bare host name or address.
        case allowedHost(String)
        /// The ring's length, in seconds.
        case limitSeconds(Double, range: ClosedRange<Double>)
        /// The ring's count of recordings kept.
        case keep(Int, range: ClosedRange<Int>)
        /// The ring's size cap, in MiB.
        case maximumMebibytes(Int, range: ClosedRange<Int>)
    }
}
