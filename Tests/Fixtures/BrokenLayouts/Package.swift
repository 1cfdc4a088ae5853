// swift-tools-version:6.1
import PackageDescription

// Layouts broken on purpose, for scripts/test-examples: each a wrapper of the example's
// CHTWaterfallLayout that breaks one thing, registered as a strategy of the example's
// `cht-waterfall` kind (README.md: how one is added). Not an example to copy.
let package = Package(
    name: "BrokenLayouts",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "LayoutBench", path: "../../.."),
        .package(name: "CustomLayouts", path: "../../../Examples/CustomLayouts"),
    ],
    targets: [
        .executableTarget(
            name: "broken-layout-bench",
            dependencies: [
                .product(name: "CustomLayouts", package: "CustomLayouts"),
                .product(name: "CustomLayoutKinds", package: "CustomLayouts"),
                .product(name: "LayoutBenchCLI", package: "LayoutBench"),
            ]),
    ]
)
