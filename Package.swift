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
        .library(name: "Streaming", targets: ["Streaming"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // libiio 0.24 (Debian: libiio-dev) and libudev (libudev-dev), reached
        // only through Sources/Sensors/IIO/LibIIO.swift.
        .systemLibrary(
            name: "CLibIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev", "libudev-dev"])]
        ),
        // libpng's simplified write API (Debian: libpng-dev).
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
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
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Knob",
            dependencies: ["Motion", "CPNG"]
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
                "Streaming",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        .testTarget(name: "MotionTests", dependencies: ["Motion"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Motion"]),
        .testTarget(name: "KnobTests", dependencies: ["Knob", "Motion"], exclude: ["Golden"]),
        // Helpers shared by the test targets: running the built tiltd, a
        // Unix socket client, temporary directories, deadlines.
        .target(name: "TiltdTestSupport", dependencies: ["Knob", "Motion"], path: "Tests/TiltdTestSupport"),
        .testTarget(name: "StreamingTests", dependencies: ["Streaming", "Motion", "Sensors", "Knob", "TiltdTestSupport"]),
        .testTarget(name: "tiltdTests", dependencies: ["tiltd", "Motion", "Sensors", "Knob", "TiltdTestSupport"]),
    ]
)
