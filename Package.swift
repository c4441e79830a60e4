// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tiltd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tiltd", targets: ["tiltd"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "Sensors", targets: ["Sensors"]),
        .library(name: "Knob", targets: ["Knob"]),
        .library(name: "Controls", targets: ["Controls"]),
        .library(name: "Levels", targets: ["Levels"]),
        .library(name: "Web", targets: ["Web"]),
        .library(name: "TiltBus", targets: ["TiltBus"]),
        .library(name: "Streaming", targets: ["Streaming"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        // libiio 0.24 (Debian: libiio-dev) and libudev (libudev-dev), reached
        // only through Sources/Sensors/IIO/LibIIO.swift.
        .systemLibrary(
            name: "CLibIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev", "libudev-dev"])]
        ),
        // libevdev (Debian: libevdev-dev), reached only through
        // Sources/Sensors/Evdev/LibEvdev.swift: game-pad motion sensors.
        .systemLibrary(
            name: "CLibEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        // libpng's simplified write API (Debian: libpng-dev).
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // libpulse (Debian: libpulse-dev), reached only through
        // Sources/Levels/Pulse/LibPulse.swift.
        .systemLibrary(
            name: "CPulse",
            pkgConfig: "libpulse",
            providers: [.apt(["libpulse-dev"])]
        ),
        // libsndfile (Debian: libsndfile1-dev), reached only through
        // Sources/Levels/Files/LibSndFile.swift.
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        // Levels: live audio peak levels (PulseAudio), level files (WAV,
        // JSON Lines) and the default sink's volume.
        .target(
            name: "Levels",
            dependencies: [
                "CPulse", "CSndFile", "Motion", "Knob",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // sd-bus from libsystemd (Debian: libsystemd-dev), reached only through
        // Sources/TiltBus/SDBus.swift.
        .systemLibrary(
            name: "CSDBus",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The sd-bus vtable of net.tiltd.Tilt1 (its SD_BUS_* macros cannot be
        // imported into Swift); it calls back into TiltBus for every member.
        .target(name: "CTiltBus", dependencies: ["CSDBus"]),
        // Motion: the device-independent maths and traces (no C library).
        .target(
            name: "Motion",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Sensors: the devices that feed Motion (IIO through libiio).
        .target(
            name: "Sensors",
            dependencies: [
                "Motion",
                "CLibIIO",
                "CLibEvdev",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Knob",
            dependencies: ["Motion", "CPNG"]
        ),
        // Controls: the seed's other controls (LARSBar EQ slider, Spark
        // recording ring, RGB colour sliders) drawn with Knob's rasterizer.
        .target(
            name: "Controls",
            dependencies: ["Knob"]
        ),
        // Web: the HTTP side of `tiltd serve` on Hummingbird 2 (docs/streaming.md).
        .target(
            name: "Web",
            dependencies: [
                "Knob",
                "Motion",
                "Controls",
                // `tiltd serve` wired (ServeRun): the sample path and the slider's levels.
                "Sensors", "Streaming", "Levels",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // TiltBus: the D-Bus service net.tiltd.Tilt and its monitor client.
        .target(
            name: "TiltBus",
            dependencies: [
                "Knob", "Motion", "Sensors", "CSDBus", "CTiltBus",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Streaming: the one sample path (readings → pipeline → states →
        // sinks), the capture run, paced replay, stdout and the Unix socket
        // server on SwiftNIO, the service lifecycle and the `tiltd: …` log
        // handler. Raw POSIX calls only in Sources/Streaming/POSIX.
        .target(
            name: "Streaming",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                // `tiltd render --control larsbar`: the slider and its level files.
                "Controls",
                "Levels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "tiltd",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                "Controls",
                "Levels",
                "Web",
                "TiltBus",
                "Streaming",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "MotionTests", dependencies: ["Motion"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Motion"]),
        // Golden-image comparison shared by the test targets that keep goldens.
        .target(name: "GoldenTesting", dependencies: ["Knob"], path: "Tests/GoldenTesting"),
        .testTarget(name: "KnobTests", dependencies: ["Knob", "Motion", "GoldenTesting"], exclude: ["Golden"]),
        .testTarget(name: "ControlsTests", dependencies: ["Controls", "Knob", "GoldenTesting"],
                    exclude: ["Golden"]),
        .testTarget(name: "LevelsTests", dependencies: ["Levels", "Motion", "tiltd", "TiltdTestSupport"]),
        .testTarget(name: "WebTests", dependencies: [
            "Web", "Knob", "Motion", "TiltdTestSupport", "Controls", "GoldenTesting", "Streaming", "Sensors",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "TiltBusTests", dependencies: ["TiltBus", "Knob", "Motion", "TiltdTestSupport", "tiltd"]),
        // Helpers shared by the test targets: running the built tiltd, a
        // Unix socket client, temporary directories, deadlines.
        .target(name: "TiltdTestSupport", dependencies: ["Knob", "Motion"], path: "Tests/TiltdTestSupport"),
        .testTarget(name: "StreamingTests", dependencies: ["Streaming", "Motion", "Sensors", "Knob", "TiltdTestSupport",
                                                         "Controls", "Levels"]),
        .testTarget(name: "tiltdTests", dependencies: ["tiltd", "Motion", "Sensors", "Knob", "TiltdTestSupport"]),
    ]
)
