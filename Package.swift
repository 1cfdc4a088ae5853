// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "LayoutBench",
    // The clock APIs (`Clock`, `Duration`, `ContinuousClock`) the engine's precache and the
    // harness's sampling use need macOS 13 and iOS 16; the Linux build takes no platform.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "LayoutEngine", targets: ["LayoutEngine"]),
        .library(name: "LayoutReference", targets: ["LayoutReference"]),
        .library(name: "LayoutBenchCLI", targets: ["LayoutBenchCLI"]),
        .executable(name: "layout-bench", targets: ["layout-bench"]),
        .executable(name: "solver-bench", targets: ["solver-bench"]),
    ],
    // RealText builds the native text stack (HarfBuzz, FreeType, ICU) into TextShaping: labels
    // with a font (docs/text.md). On by default, so this package's own builds, scripts and CI
    // measure real text; a package that measures none depends on LayoutBench with `traits: []`
    // and builds, links and runs without the three libraries (docs/your-layout.md).
    traits: [
        .trait(name: "RealText", description: "Labels with a font, measured by HarfBuzz, FreeType and ICU (docs/text.md)"),
        .default(enabledTraits: ["RealText"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Property tests with shrinking, for the differential tests (test targets only).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The layout engine: pure Swift, no dependencies, no knowledge of the harness.
        // LAYOUT_INTERNAL_CHECKS compiles the O(n) invariant checks (`_checkInvariants()`) into
        // debug builds and the tests; a release build, which times, never runs them.
        .target(name: "LayoutEngine", swiftSettings: [.define("LAYOUT_INTERNAL_CHECKS", .when(configuration: .debug))]),
        // Every oracle the engine is checked against, each an independent, plainly written exact
        // answer: the geometry and pinning of docs/engine-semantics.md, stable lanes, prefix sums, the reuse rules, and
        // the coordinate tolerance. The engine never depends on it; the harness and tests do.
        .target(name: "LayoutReference", dependencies: ["LayoutEngine"]),

        // jemalloc, through pkg-config; Swift's own allocations go through it once it is linked.
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),
        // zlib, for samples.csv.gz (gzip keeps the samples CSV: zcat, pandas, R and DuckDB read it).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Callgrind client requests (start/stop instrumentation around a timed region).
        .target(name: "CCallgrind"),
        // An interruption flag and a count of children being started, shared by SignalCleanup's
        // handler and the threads that start children (C11 atomics: no lock in a handler).
        .target(name: "CInterrupt"),
        // Real text (docs/text.md): HarfBuzz shapes, FreeType gives font metrics, ICU finds line
        // break opportunities (UAX #14); CLineBreak wraps ICU's version-renamed C functions.
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        // CICU only with RealText too: a build without it asks pkg-config for no ICU.
        .target(name: "CLineBreak", dependencies: [.byName(name: "CICU", condition: .when(traits: ["RealText"]))]),
        // Label text measured on real fonts, the engine's `LabelTextMeasuring`: the engine stays
        // pure Swift, the harness hands this to the measurers of labels that name a font. The C
        // libraries only with RealText; without it, the text limits and the error of a font.
        .target(
            name: "TextShaping",
            dependencies: [
                "LayoutEngine",
                .byName(name: "CHarfBuzz", condition: .when(traits: ["RealText"])),
                .byName(name: "CFreeType", condition: .when(traits: ["RealText"])),
                .byName(name: "CLineBreak", condition: .when(traits: ["RealText"])),
            ]
        ),

        // The statistics of samples, pure functions of arrays of Double: quantiles, the summary of a
        // series, the run-to-run interval, the bootstrap of a ratio, Mann–Whitney. Knows nothing
        // of layouts, scenarios or files.
        .target(name: "BenchStatistics"),
        // The harness, in layers that import one way (docs/architecture.md). Each knows nothing of
        // the CLI, and nothing of the layers above it.
        //
        // The platform: child processes, signals, atomic files and results directories, input
        // files, gzip, the clock and the allocation, perf and callgrind counters.
        .target(name: "BenchPlatform", dependencies: ["CJemalloc", "CZlib", "CCallgrind", "CInterrupt"]),
        // The results format: every CSV and JSON schema a run writes and compare reads, `Metric`,
        // run metadata, their readers and writers.
        .target(name: "BenchResults", dependencies: ["BenchPlatform", "BenchStatistics"]),
        // Scenarios: the strict JSON reader, data files, templates, the layout catalog.
        .target(name: "BenchScenarios", dependencies: ["BenchPlatform", "BenchResults", "BenchStatistics", "LayoutEngine", "TextShaping"]),
        // Workloads: each workload's modes, operations and verification; the plan of a scenario.
        .target(name: "BenchWorkloads", dependencies: ["BenchPlatform", "BenchResults", "BenchScenarios", "LayoutEngine", "LayoutReference", "BenchStatistics", "TextShaping"]),
        // The runner: sampling, child processes per group, callgrind, the results of a run.
        .target(name: "BenchRunner", dependencies: ["BenchPlatform", "BenchResults", "BenchScenarios", "BenchWorkloads", "BenchStatistics"]),
        // Compare: two results judged row by row, the verdicts and their causes.
        .target(name: "BenchCompare", dependencies: ["BenchPlatform", "BenchResults", "BenchStatistics"]),
        // The drivers of whole comparisons: `compare-commits` (rounds of two commits' binaries as
        // child processes, duets, the budget, merging rounds, shards) and `history`; they judge
        // with BenchCompare in process and know nothing of scenarios, workloads or the engine.
        .target(name: "BenchDriver", dependencies: ["BenchPlatform", "BenchResults", "BenchStatistics", "BenchCompare"]),

        // The command line as a library: `LayoutBenchCLI.main(layouts:)` registers a user's layout
        // kinds and runs every subcommand (docs/your-layout.md).
        .target(
            name: "LayoutBenchCLI",
            dependencies: [
                "BenchPlatform", "BenchResults", "BenchScenarios", "BenchWorkloads", "BenchRunner", "BenchCompare",
                "BenchDriver", "LayoutEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `layout-bench`: the command line with the built-in layout kinds.
        .executableTarget(name: "layout-bench", dependencies: ["LayoutBenchCLI"]),

        // The Swift half of scripts/kiwi-bench: the constraint solver timed on the systems the
        // kiwi C++ driver times, and its warm measurements checked for allocations.
        .executableTarget(name: "solver-bench", dependencies: ["LayoutEngine", "TextShaping", "BenchPlatform", "BenchResults", "BenchScenarios", "BenchWorkloads", "BenchRunner", "BenchStatistics", "CJemalloc"]),

        // What every test target shares: the one seeded generator, the random-layout
        // generators (genes that shrink), and `checkProperty`.
        .target(
            name: "LayoutTestSupport",
            dependencies: ["LayoutEngine", "LayoutReference", "BenchStatistics", .product(name: "PropertyBased", package: "swift-property-based")],
            path: "Tests/LayoutTestSupport"
        ),
        // What the harness's test targets share: scenario texts and their parsing, plans and plan
        // errors, the offsets scenario, and synthetic samples.csv rows (`ResultsFixtures`).
        .target(
            name: "HarnessTestSupport",
            dependencies: ["LayoutEngine", "BenchStatistics", "BenchResults", "BenchScenarios", "BenchWorkloads", "BenchCompare"],
            path: "Tests/HarnessTestSupport"
        ),
        .testTarget(name: "LayoutEngineTests", dependencies: ["LayoutEngine", "LayoutReference", "LayoutTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "LayoutReferenceTests", dependencies: ["LayoutEngine", "LayoutReference", "LayoutTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        // One test target per harness target, named after it: a file goes to the target of what it
        // tests, and imports that target and the layers below it (CONTRIBUTING.md, "Tests").
        .testTarget(name: "BenchStatisticsTests", dependencies: ["BenchStatistics"]),
        .testTarget(name: "BenchPlatformTests", dependencies: ["BenchPlatform", "LayoutTestSupport"]),
        .testTarget(name: "BenchResultsTests", dependencies: ["BenchStatistics", "BenchPlatform", "BenchResults", "HarnessTestSupport", "LayoutTestSupport"]),
        .testTarget(name: "BenchScenariosTests", dependencies: ["LayoutEngine", "BenchStatistics", "BenchPlatform", "BenchResults", "TextShaping", "BenchScenarios", "HarnessTestSupport"]),
        .testTarget(
            name: "BenchWorkloadsTests",
            dependencies: ["LayoutEngine", "LayoutReference", "BenchStatistics", "BenchPlatform", "BenchResults", "TextShaping", "BenchScenarios", "BenchWorkloads", "HarnessTestSupport", "LayoutTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // BenchCompare and BenchDriver too: FailureRecordTests follows a failed group from the run
        // through compare and the merge of rounds, and NumberConversionTests and RegressionCauseTests
        // judge what runs and callgrind wrote.
        .testTarget(name: "BenchRunnerTests", dependencies: ["LayoutEngine", "LayoutReference", "BenchStatistics", "BenchPlatform", "BenchResults", "BenchScenarios", "BenchWorkloads", "BenchRunner", "BenchCompare", "BenchDriver", "HarnessTestSupport", "LayoutTestSupport"]),
        // BenchDriver too: MachineLoadWarningTests reads back the load `MachineLoad.measure` records.
        .testTarget(name: "BenchCompareTests", dependencies: ["BenchStatistics", "BenchPlatform", "BenchResults", "BenchCompare", "BenchDriver", "BenchWorkloads", "HarnessTestSupport", "LayoutTestSupport"]),
        .testTarget(name: "BenchDriverTests", dependencies: ["BenchStatistics", "BenchPlatform", "BenchResults", "BenchCompare", "BenchDriver", "LayoutTestSupport"]),
    ]
)
