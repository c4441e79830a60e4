// swift-tools-version:6.0
// Benchmarks live in their own package so that `swift build` at the root never
// builds them; run with bench/run.sh (release builds).
import PackageDescription

let package = Package(
    name: "tiltd-bench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "tiltd", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "PipelineBench",
            dependencies: [.product(name: "Motion", package: "tiltd"),
                           .product(name: "Knob", package: "tiltd")]
        ),
        .executableTarget(
            name: "FrameBench",
            dependencies: [.product(name: "Knob", package: "tiltd"),
                           .product(name: "KnobPNG", package: "tiltd"),
                           .product(name: "Motion", package: "tiltd")]
        ),
        // AttitudeFusion's cost per sample on BROAD trials (bench/accuracy.sh).
        .executableTarget(
            name: "AttitudeBench",
            dependencies: [.product(name: "Motion", package: "tiltd")]
        ),
        .executableTarget(
            name: "ReplayBounds",
            dependencies: [.product(name: "Knob", package: "tiltd"),
                           .product(name: "Motion", package: "tiltd"),
                           .product(name: "Traces", package: "tiltd"),
                           .product(name: "Platform", package: "tiltd")]
        ),
    ]
)
