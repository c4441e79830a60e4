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
        .library(name: "Wording", targets: ["Wording"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "Platform", targets: ["Platform"]),
        .library(name: "Knob", targets: ["Knob"]),
        .library(name: "Images", targets: ["Images"]),
        .library(name: "Controls", targets: ["Controls"]),
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
        // The module graph (README, "Layout"): each module has one job and
        // uses only the layers below it; the executables parse the command line.
        //
        //   executables   tiltd-run (`run` only)       tiltd (every command)
        //   command line  Commands
        //   composition   Daemon (run, replay)         Serve (serve)    Render (render)
        //   consumers     StateSocket   Bus   DSU      Web              Levels
        //   sample path   SamplePath
        //   devices       Devices        Traces        Controls → Images
        //   model         Knob → Motion
        //   platform      Platform
        //
        // Platform: POSIX calls, the thread for blocking C calls, the log
        // handler. No Foundation (as everything `tiltd-run` links).
        .target(
            name: "Platform",
            dependencies: ["CPlatform", .product(name: "Logging", package: "swift-log")]
        ),
        // prctl(PR_SET_NAME) for Platform's threads (variadic in C).
        .systemLibrary(name: "CPlatform"),
        // libiio 0.24 (Debian: libiio-dev) and libudev (libudev-dev), reached
        // only through Sources/Devices/IIO/LibIIO.swift.
        .systemLibrary(
            name: "CLibIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev", "libudev-dev"])]
        ),
        // libevdev (Debian: libevdev-dev), reached only through
        // Sources/Devices/Evdev/LibEvdev.swift: game-pad motion sensors.
        .systemLibrary(
            name: "CLibEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        // libpng's simplified read and write API (Debian: libpng-dev),
        // reached only through Sources/Images/LibPNG.swift.
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
        // sd-bus from libsystemd (Debian: libsystemd-dev), reached only through
        // Sources/Bus/SDBus.swift.
        .systemLibrary(
            name: "CSDBus",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The sd-bus vtable of net.tiltd.Tilt1 (its SD_BUS_* macros cannot be
        // imported into Swift); it calls back into Bus for every member.
        .target(name: "CTiltBus", dependencies: ["CSDBus"]),
        // Motion: the device-independent maths and traces (no C library).
        .target(name: "Motion", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // Wording: what libraries tell the person running tiltd, typed:
        // settings named by type (the command line spells them) and
        // diagnostics. Motion's maths names no setting.
        .target(name: "Wording"),
        // Trace files: reading (whole or streamed) and writing, the file
        // I/O kept out of Motion's maths.
        .target(name: "Traces", dependencies: ["Motion", "Platform"]),
        // Devices: what feeds Motion: IIO through libiio, evdev pads, the
        // device listing and the one capture loop (reopen, backoff).
        .target(name: "Devices", dependencies: ["Wording", "Motion", "Platform", "CLibIIO", "CLibEvdev"]),
        // Knob: the knob's model (shine, states) and its rasterizer, in
        // memory (no C library: `tiltd run` links it).
        .target(name: "Knob", dependencies: ["Motion"]),
        // Images: Knob's images as PNG files and bytes, through libpng.
        .target(name: "Images", dependencies: ["Knob", "CPNG", "Platform"]),
        // Controls: the seed's other controls (LARSBar EQ slider, Spark
        // recording ring, RGB colour sliders) drawn with Knob's rasterizer.
        .target(name: "Controls", dependencies: ["Knob", "Images"]),
        // Levels: live audio peak levels (PulseAudio), level files (WAV,
        // JSON Lines) and the default sink's volume.
        .target(
            name: "Levels",
            dependencies: [
                "Wording", "CPulse", "CSndFile", "Motion", "Knob", "Platform",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // SamplePath: readings → pipeline → states, handed once to the one
        // fan-out (StateHub) and its consumers' mailboxes; stdout, replay,
        // recording files, device demand and the on-demand switch.
        .target(
            name: "SamplePath",
            dependencies: [
                "Wording", "Traces", "Motion", "Devices", "Knob", "Platform",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // StateSocket: the Unix socket server (SwiftNIO), a hub consumer.
        .target(
            name: "StateSocket",
            dependencies: [
                "SamplePath", "Motion", "Knob", "Platform",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Bus: the D-Bus service net.tiltd.Tilt (a hub consumer) and its
        // monitor client, through sd-bus.
        .target(
            name: "Bus",
            dependencies: [
                "Wording", "Knob", "Motion", "Devices", "SamplePath", "Platform", "CSDBus", "CTiltBus",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Daemon: `tiltd run` and `replay` composed: a device or a recording
        // through the sample path into stdout, the socket and the bus, under
        // the service lifecycle and its signals. No Foundation.
        .target(
            name: "Daemon",
            dependencies: [
                "Traces", "SamplePath", "StateSocket", "Devices", "Motion", "Platform", "Bus", "DSU",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // Web: the HTTP and WebSocket server on Hummingbird 2 and the page
        // (docs/streaming.md), a hub consumer.
        .target(
            name: "Web",
            dependencies: [
                "Wording", "Traces", "Knob", "Images", "Motion", "Controls", "SamplePath", "Devices", "Platform",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
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
        // Serve: `tiltd serve` composed: the sample path, the slider's levels
        // and the web server.
        .target(
            name: "Serve",
            dependencies: [
                "Wording", "Web", "SamplePath", "Devices", "Levels", "Knob", "Motion",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Render: `tiltd render`'s frames (options, frame loop, outputs, the
        // LARSBar slider's frames).
        .target(
            name: "Render",
            dependencies: [
                "Motion", "Knob", "Images", "Controls", "Levels", "SamplePath", "Platform",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Commands: the command line both executables share: `tiltd run`,
        // the option groups other commands reuse, the flag each typed error
        // names, main's error handling and exit codes.
        .target(
            name: "Commands",
            dependencies: [
                "Wording", "Motion", "Devices", "Bus", "DSU", "SamplePath", "StateSocket", "Daemon", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // tiltd: every command (ArgumentParser definitions over the modules).
        .executableTarget(
            name: "tiltd",
            dependencies: [
                "Wording", "Motion", "Devices", "Knob", "Controls", "Levels", "Web", "Serve", "Bus",
                "SamplePath", "Daemon", "Platform", "Render", "Commands",
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
                "Commands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags([
                "-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims",
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
            ])]
        ),
        // DSU: the cemuhook protocol (v1001) that emulators read motion with:
        // requests, packets, subscribers (docs/dsu.md), and the server.
        // The server is a consumer of the sample path's hub on SwiftNIO (no
        // Foundation: `tiltd run` links it).
        .target(
            name: "DSU",
            dependencies: [
                "Motion", "Devices", "Knob", "SamplePath", "Platform",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "DSUTests", dependencies: ["DSU", "SamplePath", "Motion", "Devices", "TiltdTestSupport"]),
        // The DSU server on loopback UDP sockets (system tier).
        .testTarget(name: "DSUServerTests", dependencies: ["Traces", "DSU", "SamplePath", "Motion", "Devices", "TiltdTestSupport",
                                                         .product(name: "NIOCore", package: "swift-nio")]),
        // Two tiers (scripts/test.sh): the system tier is tiltdTests,
        // BusTests, WebTests, LevelsTests and DaemonSystemTests (they start
        // tiltd, umockdev, Chromium, PulseAudio, dbus, sox or ffmpeg); every
        // other test target is the unit tier and spawns nothing.
        .testTarget(name: "MotionTests", dependencies: ["Traces", "Motion", "TiltdTestSupport"]),
        .testTarget(name: "DevicesTests", dependencies: ["Wording", "Devices", "Motion"]),
        // Golden-image comparison shared by the test targets that keep goldens.
        .target(name: "GoldenTesting", dependencies: ["Knob", "Images"], path: "Tests/GoldenTesting"),
        .testTarget(name: "KnobTests", dependencies: ["Knob", "Images", "Motion", "Platform", "GoldenTesting"],
                    exclude: ["Golden"]),
        .testTarget(name: "ControlsTests", dependencies: ["Controls", "Knob", "Images", "GoldenTesting"],
                    exclude: ["Golden"]),
        .testTarget(name: "LevelsTests", dependencies: ["Levels", "Motion", "tiltd", "TiltdTestSupport"]),
        .testTarget(name: "WebTests", dependencies: [
            "Wording", "Traces", "Web", "Serve", "Knob", "Images", "Motion", "TiltdTestSupport", "Controls", "GoldenTesting", "SamplePath",
            "Devices", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], exclude: ["Golden"]),
        .testTarget(name: "BusTests", dependencies: ["Bus", "Knob", "Motion", "SamplePath", "Devices", "TiltdTestSupport",
                                                    "tiltd", "DSU"]),
        // The unit tier's share of Web, Levels and Bus: no server, browser or bus.
        .testTarget(name: "WebUnitTests", dependencies: [
            "Wording", "Traces", "Web", "Knob", "Motion", "Controls", "SamplePath", "Devices", "TiltdTestSupport",
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LevelsUnitTests", dependencies: ["Levels", "Motion"]),
        .testTarget(name: "BusUnitTests", dependencies: ["Traces", "Bus", "Knob", "Motion", "TiltdTestSupport"]),
        // Helpers shared by the test targets: running the built tiltd, a
        // Unix socket client, temporary directories, deadlines, tiltd's log
        // lines, the test tier.
        .target(name: "TiltdTestSupport", dependencies: [
            "Knob", "Motion", "Platform", .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        ], path: "Tests/TiltdTestSupport"),
        .testTarget(name: "SamplePathTests", dependencies: ["Traces", "SamplePath", "Daemon", "StateSocket", "Platform", "Motion",
                                                           "Knob", "TiltdTestSupport"]),
        .testTarget(name: "StateSocketTests", dependencies: ["StateSocket", "SamplePath", "Motion", "Knob",
                                                            "TiltdTestSupport"]),
        // The capture run in this process against iiod under umockdev.
        .testTarget(name: "DaemonSystemTests", dependencies: ["Traces", "Daemon", "Bus", "SamplePath", "StateSocket", "Motion", "Devices",
                                                             "Knob", "TiltdTestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["Wording", "Render", "SamplePath", "Motion", "Knob", "Images", "TiltdTestSupport",
                                                      "Controls", "Levels", "Commands", "tiltd"]),
        // Commands' wording and parsing of option values, in this process.
        // (The wording of Render's, Serve's and Levels' refusals is tiltd's.)
        .testTarget(name: "CommandsTests", dependencies: ["Commands", "Motion", "DSU", "StateSocket", "SamplePath",
                                                         "Levels", "Serve", "Render", "Controls", "Platform", "tiltd"]),
        .testTarget(name: "tiltdTests", dependencies: ["Wording", "Traces", "tiltd", "Commands", "Motion", "Devices", "Knob", "Images",
                                                      "TiltdTestSupport"]),
    ]
)
