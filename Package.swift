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
        .library(name: "TiltBus", targets: ["TiltBus"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
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
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Knob",
            dependencies: ["Motion", "CPNG"]
        ),
        // TiltBus: the D-Bus service net.tiltd.Tilt and its monitor client.
        .target(
            name: "TiltBus",
            dependencies: ["Knob", "Motion", "CSDBus", "CTiltBus"]
        ),
        .executableTarget(
            name: "tiltd",
            dependencies: [
                "Motion",
                "Sensors",
                "Knob",
                "TiltBus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        .testTarget(name: "MotionTests", dependencies: ["Motion"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Motion"]),
        .testTarget(name: "KnobTests", dependencies: ["Knob", "Motion"], exclude: ["Golden"]),
        .testTarget(name: "TiltBusTests", dependencies: ["TiltBus", "Knob", "Motion", "tiltd"]),
        .testTarget(name: "tiltdTests", dependencies: ["tiltd", "Motion", "Sensors", "Knob"]),
    ]
)
