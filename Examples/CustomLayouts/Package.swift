// swift-tools-version:6.1
import PackageDescription

// What a layout author writes to benchmark their layouts with LayoutBench: the layouts (a library
// that knows nothing of the harness) and an executable whose main registers them.
let package = Package(
    name: "CustomLayouts",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CustomLayouts", targets: ["CustomLayouts"]),
        .library(name: "CustomLayoutKinds", targets: ["CustomLayoutKinds"]),
        .executable(name: "custom-layout-bench", targets: ["custom-layout-bench"]),
    ],
    // These layouts measure no real text, so LayoutBench's RealText trait (HarfBuzz, FreeType and
    // ICU, on by default) is off here: the package builds, links and runs without the three
    // libraries. This package's own RealText trait turns it back on (`swift build --traits
    // RealText`) for scenarios whose labels name a font; without it such a scenario is one error
    // naming the trait (docs/your-layout.md, real text).
    traits: [
        .trait(name: "RealText", description: "LayoutBench's labels on real fonts (HarfBuzz, FreeType, ICU)"),
    ],
    dependencies: [
        // In your own package: .package(url: "https://…/LayoutBench", from: "…", traits: []) for
        // no real text; leave traits out (the defaults) for real text.
        .package(name: "LayoutBench", path: "../..", traits: [
            .init(name: "RealText", condition: .when(traits: ["RealText"])),
        ]),
    ],
    targets: [
        // The layouts, written against LayoutEngine's `CollectionLayout` only.
        .target(name: "CustomLayouts", dependencies: [.product(name: "LayoutEngine", package: "LayoutBench")]),
        // Their registrations (`LayoutKind`s: keys, workloads, strategies), a library so that other
        // packages (a test fixture, your tests) register the same kinds.
        .target(
            name: "CustomLayoutKinds",
            dependencies: ["CustomLayouts", .product(name: "LayoutBenchCLI", package: "LayoutBench")]),
        // `custom-layout-bench`: layout-bench's command line with the two layouts registered.
        .executableTarget(
            name: "custom-layout-bench",
            dependencies: ["CustomLayoutKinds", .product(name: "LayoutBenchCLI", package: "LayoutBench")]),
    ]
)
