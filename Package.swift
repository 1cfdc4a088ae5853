// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LayoutBench",
    products: [
        .library(name: "LayoutEngine", targets: ["LayoutEngine"]),
        .library(name: "LayoutReference", targets: ["LayoutReference"]),
        .library(name: "LayoutBenchKit", targets: ["LayoutBenchKit"]),
        .executable(name: "layout-bench", targets: ["layout-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The layout engine: pure Swift, no dependencies, no knowledge of the harness.
        .target(name: "LayoutEngine"),
        // SPEC §3 geometry written the plainest way: the independent oracle the engine is checked against.
        .target(name: "LayoutReference", dependencies: ["LayoutEngine"]),

        // jemalloc, through pkg-config; Swift's own allocations go through it once it is linked.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),
        // Callgrind client requests (start/stop instrumentation around a timed region).
        .target(name: "CCallgrind"),

        // The harness: scenarios, workloads, measurement, statistics, CSV. Knows nothing of the CLI.
        .target(name: "LayoutBenchKit", dependencies: ["LayoutEngine", "LayoutReference", "CJemalloc", "CCallgrind"]),

        .executableTarget(
            name: "layout-bench",
            dependencies: [
                "LayoutBenchKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "LayoutEngineTests", dependencies: ["LayoutEngine"]),
        .testTarget(name: "LayoutReferenceTests", dependencies: ["LayoutEngine", "LayoutReference"]),
        .testTarget(name: "LayoutBenchKitTests", dependencies: ["LayoutBenchKit", "LayoutEngine", "LayoutReference"]),
    ]
)
