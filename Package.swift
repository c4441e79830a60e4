// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tiltd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tiltd", targets: ["tiltd"]),
        // `tiltd run` alone: what the daemon links, and nothing more (no
        // Foundation, HTTP stack, audio or PNG); `tiltd run` execs it when
        // it sits beside tiltd.
        .executable(name: "tiltd-run", targets: ["tiltd-run"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "Sensors", targets: ["Sensors"]),
        .library(name: "Knob", targets: ["Knob"]),
        .library(name: "KnobPNG", targets: ["KnobPNG"]),
        .library(name: "Controls", targets: ["Controls"]),
        .library(name: "Levels", targets: ["Levels"]),
        .library(name: "Web", targets: ["Web"]),
        .library(name: "TiltBus", targets: ["TiltBus"]),
        .library(name: "Streaming", targets: ["Streaming"]),
        .library(name: "Jobs", targets: ["Jobs"]),
        .library(name: "RunCommandLine", targets: ["RunCommandLine"]),
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
        // libpng's simplified read and write API (Debian: libpng-dev),
        // reached only through Sources/KnobPNG/LibPNG.swift.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // libpulse (Debian: libpulse-dev), reached only through
        // Sources/Levels/Pulse/LibPulse.swift. No pkgConfig: libpulse.pc adds
        // only -D_REENTRANT and -pthread (no-ops with glibc ≥ 2.34), which
        // SwiftPM refuses with a "prohibited flag(s)" warning on every build;
        // the headers are in /usr/include and the module map links -lpulse.
        .systemLibrary(
            name: "CPulse",
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
                // WAVWriter replaces a file whole as PNGWriter does.
                "KnobPNG",
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
        // Knob: the knob's model (shine, states) and its rasterizer, in
        // memory (no C library: `tiltd run` links it).
        .target(
            name: "Knob",
            dependencies: ["Motion"]
        ),
        // KnobPNG: Knob's images as PNG files and bytes, through libpng.
        .target(
            name: "KnobPNG",
            dependencies: ["Knob", "CPNG"]
        ),
        // Controls: the seed's other controls (LARSBar EQ slider, Spark
        // recording ring, RGB colour sliders) drawn with Knob's rasterizer.
        .target(
            name: "Controls",
            dependencies: ["Knob", "KnobPNG"]
        ),
        // Web: the HTTP side of `tiltd serve` on Hummingbird 2 (docs/streaming.md).
        .target(
            name: "Web",
            dependencies: [
                "Knob",
                "KnobPNG",
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
            ],
            // The page's HTML, CSS and JavaScript (Sources/Web/Page), built
            // into the binary as byte arrays (`PackageResources`): an
            // installed tiltd needs no file beside it.
            resources: ["index.html", "page.css", "page.js", "controls.html", "controls-ring.html", "light-slider.html",
                        "light-note.html", "controls.css", "controls.js", "larsbar.html", "larsbar.css", "larsbar.js", "tiltd.js"]
                .map { .embedInCode("Page/" + $0) }
        ),
        // TiltBus: the D-Bus service net.tiltd.Tilt and its monitor client.
        .target(
            name: "TiltBus",
            dependencies: [
                "Knob", "Motion", "Sensors", "Streaming", "CSDBus", "CTiltBus",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Streaming: the one sample path (readings → pipeline → states →
        // sinks), the capture run, paced replay, stdout and the Unix socket
        // server on SwiftNIO, the service lifecycle and the `tiltd: …` log
        // handler. Raw POSIX calls only in Sources/Streaming/POSIX. No
        // Foundation, Controls or Levels: `tiltd run` links it.
        .target(
            name: "Streaming",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // Jobs: the one-shot jobs of commands `run` never uses, built on
        // Streaming: `tiltd render` (options, frame loop, outputs, the
        // LARSBar slider's frames) and `tiltd list`'s report (text or JSON).
        .target(
            name: "Jobs",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                "KnobPNG",
                "Controls",
                "Levels",
                "Streaming",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // RunCommandLine: `tiltd run`'s command and the option groups it
        // shares with the other commands, and the error handling of
        // tiltd's main; both executables build on it.
        .target(
            name: "RunCommandLine",
            dependencies: [
                "Motion",
                "Sensors",
                "TiltBus",
                "Streaming",
                "DSU",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
                "Jobs",
                "RunCommandLine",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The daemon's executable: RunCommand as the root's only command,
        // shown as `tiltd run`. Linked for a small resident set
        // (docs/performance.md, Memory): the Swift runtime statically
        // (ArgumentParser imports FoundationEssentials, whose static archive
        // needs two more that nothing else names); by the toolchain's lld,
        // with packed relative relocations (DT_RELR: glibc 2.36, Debian 12)
        // and without exporting every symbol: 2 MiB less touched at start.
        .executableTarget(
            name: "tiltd-run",
            dependencies: [
                "RunCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags([
                "-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims",
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
            ])]
        ),
        // DSU: the cemuhook protocol (v1001) that emulators read motion with:
        // requests, packets, subscribers (docs/dsu.md), and the server.
        // The server is a consumer of Streaming's hub on SwiftNIO (no Foundation: `tiltd run` links it).
        .target(
            name: "DSU",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                "Streaming",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "DSUTests", dependencies: ["DSU", "Streaming", "Motion", "Sensors", "TiltdTestSupport"]),
        // Two tiers (scripts/test.sh): the system tier is tiltdTests,
        // TiltBusTests, WebTests, LevelsTests and StreamingSystemTests (they
        // start tiltd, umockdev, Chromium, PulseAudio, dbus, sox or ffmpeg);
        // every other test target is the unit tier and spawns nothing.
        .testTarget(name: "MotionTests", dependencies: ["Motion"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Motion", "Jobs"]),
        // Golden-image comparison shared by the test targets that keep goldens.
        .target(name: "GoldenTesting", dependencies: ["Knob", "KnobPNG"], path: "Tests/GoldenTesting"),
        .testTarget(name: "KnobTests", dependencies: ["Knob", "KnobPNG", "Motion", "GoldenTesting"], exclude: ["Golden"]),
        .testTarget(name: "ControlsTests", dependencies: ["Controls", "Knob", "KnobPNG", "GoldenTesting"],
                    exclude: ["Golden"]),
        .testTarget(name: "LevelsTests", dependencies: ["Levels", "Motion", "tiltd", "TiltdTestSupport"]),
        .testTarget(name: "WebTests", dependencies: [
            "Web", "Knob", "KnobPNG", "Motion", "TiltdTestSupport", "Controls", "GoldenTesting", "Streaming", "Sensors",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], exclude: ["Golden"]),
        .testTarget(name: "TiltBusTests", dependencies: ["TiltBus", "Knob", "Motion", "Streaming", "TiltdTestSupport", "tiltd"]),
        // The unit tier's share of Web, Levels and TiltBus: no server, browser or bus.
        .testTarget(name: "WebUnitTests", dependencies: [
            "Web", "Knob", "Motion", "Controls", "Streaming", "Sensors", "TiltdTestSupport",
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LevelsUnitTests", dependencies: ["Levels", "Motion", "tiltd"]),
        .testTarget(name: "TiltBusUnitTests", dependencies: ["TiltBus", "Knob", "Motion"]),
        // Helpers shared by the test targets: running the built tiltd, a
        // Unix socket client, temporary directories, deadlines, tiltd's log
        // lines, the test tier.
        .target(name: "TiltdTestSupport", dependencies: [
            "Knob", "Motion", "Streaming", .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        ], path: "Tests/TiltdTestSupport"),
        .testTarget(name: "StreamingTests", dependencies: ["Streaming", "Motion", "Sensors", "Knob", "TiltdTestSupport"]),
        // The capture run in this process against iiod under umockdev.
        .testTarget(name: "StreamingSystemTests", dependencies: ["Streaming", "Motion", "Sensors", "Knob", "TiltdTestSupport"]),
        .testTarget(name: "JobsTests", dependencies: ["Jobs", "Streaming", "Motion", "Knob", "KnobPNG", "TiltdTestSupport",
                                                    "Controls", "Levels", "RunCommandLine"]),
        .testTarget(name: "tiltdTests", dependencies: ["tiltd", "Motion", "Sensors", "Knob", "KnobPNG", "TiltdTestSupport"]),
    ]
)
