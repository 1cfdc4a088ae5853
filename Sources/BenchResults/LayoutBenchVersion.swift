/// LayoutBench's release, stated once: `--version` prints it and every run.json records it
/// (`layout_bench_version`), so a run of a user's executable says which LayoutBench it was built
/// against (docs/your-layout.md). Raise it with each tagged release a package may depend on
/// (`.package(url: …, from: "<version>")`).
package enum LayoutBench {
    package static let version = "0.1.0"
}
