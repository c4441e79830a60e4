import Devices
import Foundation
import Motion
import SamplePath
import Serve
import Testing
import TiltdTestSupport
import Web

/// `tiltd serve`'s configuration, checked before anything opens or
/// listens, and its run's failures at start.
@Suite(.timeLimit(.minutes(15))) struct ServeConfigurationTests {
    static let recording = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path
    static let replay = ServeConfiguration.Source.replay(path: recording, loop: false, units: .metresPerSecondSquared,
                                                         gyroUnits: .radiansPerSecond)

    @Test(arguments: [
        (WebServerConfiguration(host: "localhost"), 256, .hostNotAnIPAddress("localhost")),
        (WebServerConfiguration(), 8, .layerSize(8, range: 16...1024)),
        (WebServerConfiguration(maxStreams: 0), 256, .maxStreams(0, range: 1...1024)),
        (WebServerConfiguration(maxConnections: 70_000), 256, .maxConnections(70_000, range: 1...65536)),
        (WebServerConfiguration(maxStreams: 8, maxStreamsPerClient: 9), 256, .maxStreamsPerClient(9, maxStreams: 8)),
        (WebServerConfiguration(maxStreamsPerClient: 0), 256, .maxStreamsPerClient(0, maxStreams: 32)),
        (WebServerConfiguration(allowedHosts: ["http://box/"]), 256, .allowedHost("http://box/")),
    ] as [(WebServerConfiguration, Int, ServeConfiguration.Invalid)])
    func badServerSettingsAreNamed(server: WebServerConfiguration, size: Int, invalid: ServeConfiguration.Invalid) {
        #expect(throws: invalid) {
            try ServeConfiguration(server: server, layerSizePixels: size, source: Self.replay,
                                   slider: ServeSlider.Settings(), version: "test")
        }
    }

    @Test func theSourceSaysWhereStatesComeFrom() throws {
        #expect(ServeConfiguration.Source.replay(path: "a.trace", loop: true, units: .g, gyroUnits: .degreesPerSecond)
            .description == "replay a.trace (loop)")
        #expect(ServeConfiguration.Source.device(CaptureConfiguration(uri: "local:", device: nil)).description
            == "device display accelerometer at local:")
        let configuration = try ServeConfiguration(server: WebServerConfiguration(host: "::1", allowedHosts: ["box.local"]),
                                                   source: Self.replay, slider: ServeSlider.Settings(), version: "test")
        #expect(configuration.layerSizePixels == 256)
    }

    @Test func theRingNeedsAUsableDirectoryAndALimitInRange() throws {
        let dir = try TestPaths.temporaryDirectory()
        #expect(try ServeConfiguration.Ring(directory: dir).limitSeconds == 45)
        #expect(throws: ServeConfiguration.Invalid.limitSeconds(0.5, range: 1...600)) {
            try ServeConfiguration.Ring(directory: dir, limitSeconds: 0.5)
        }
        // The directory itself may be made; the folder above it must exist.
        try ServeConfiguration.Ring(directory: dir + "/new").checkDirectory()
        #expect(throws: OutputPathError.noFolder(role: .recordingDirectory, path: "/nonexistent/r", folder: "/nonexistent")) {
            try ServeConfiguration.Ring(directory: "/nonexistent/r").checkDirectory()
        }
        #expect(throws: OutputPathError.notADirectory(role: .recordingDirectory, path: "/etc/hostname",
                                                      purpose: "the recordings")) {
            try ServeConfiguration.Ring(directory: "/etc/hostname").checkDirectory()
        }
    }

    @Test func sliderOptionsMustGoTogether() throws {
        #expect(try !ServeSlider.Settings().showsSlider)
        #expect(try ServeSlider.Settings(levelsFile: "a.wav").showsSlider)
        #expect(try ServeSlider.Settings(controlVolume: true).showsSlider)
        #expect(throws: ServeSlider.Settings.Invalid.liveLevelsAndFile(file: "a.wav")) {
            try ServeSlider.Settings(liveLevels: true, levelsFile: "a.wav")
        }
        #expect(throws: ServeSlider.Settings.Invalid.emptyFileName) {
            try ServeSlider.Settings(levelsFile: "")
        }
        #expect(throws: ServeSlider.Settings.Invalid.sourceWithoutLiveLevels(source: "mic")) {
            try ServeSlider.Settings(levelsSource: "mic")
        }
        #expect(throws: ServeSlider.Settings.Invalid.emptySourceName) {
            try ServeSlider.Settings(liveLevels: true, levelsSource: "")
        }
    }

    @Test func aDeviceThatDoesNotOpenFailsBeforeTheServerStarts() async throws {
        let capture = CaptureConfiguration(uri: "local:", device: "no-such-accelerometer", source: .iio)
        let configuration = try ServeConfiguration(server: WebServerConfiguration(host: "127.0.0.1", port: 0),
                                                   layerSizePixels: 16, source: .device(capture),
                                                   slider: ServeSlider.Settings(), version: "test")
        await #expect(throws: ReportedFailure.self) {
            try await ServeRun(configuration).run(under: .withoutSignals)
        }
    }
}
