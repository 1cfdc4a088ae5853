import Foundation
import BenchPlatform

/// The repository's scripts the drivers call when run from its root: the build of a commit in its
/// worktree (scripts/build-commit), the report's charts (scripts/plot) and history's step
/// detector (scripts/steps.py).
enum DriverScripts {
    static func script(_ name: String) -> String? {
        FileManager.default.isExecutableFile(atPath: "scripts/" + name) ? "scripts/" + name : nil
    }

    static var build: String? { script("build-commit") }
    /// The charts: this checkout's scripts/plot, else (in a user's package, which has no scripts/)
    /// that of the LayoutBench checkout this binary was built from.
    static var plot: String? { script("plot") ?? LayoutBenchCheckout.script("plot") }
    static var steps: String? { Paths.isFile("scripts/steps.py") ? "scripts/steps.py" : nil }
}
