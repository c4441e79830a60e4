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
        .library(name: "Web", targets: ["Web"]),
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
        // Web: the HTTP side of `tiltd serve` on Hummingbird 2 (docs/streaming.md).
        .target(
            name: "Web",
            dependencies: [
                "Knob",
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
        .executableTarget(
            name: "tiltd",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                "Web",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "MotionTests", dependencies: ["Motion"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Motion"]),
        .testTarget(name: "KnobTests", dependencies: ["Knob", "Motion"], exclude: ["Golden"]),
        .testTarget(name: "WebTests", dependencies: [
            "Web", "Knob", "Motion",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "tiltdTests", dependencies: ["tiltd", "Motion", "Sensors", "Knob"]),
    ]
)
