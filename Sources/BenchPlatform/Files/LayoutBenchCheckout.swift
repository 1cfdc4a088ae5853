import Foundation

/// The LayoutBench checkout this binary was built from (its sources' root, known when it was
/// compiled), for the scripts a user's package has none of: `run` of a user's executable draws its
/// report, and `compare-builds` its chart, with that checkout's scripts/plot. In a package that
/// depends on LayoutBench by URL the checkout is SwiftPM's (`.build/checkouts/…`), by path it is
/// that folder; a binary run where its sources are gone finds none.
package enum LayoutBenchCheckout {
    /// The root: four folders above this file (`Sources/BenchPlatform/Files/LayoutBenchCheckout.swift`).
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `scripts/NAME` of the checkout, when it is there and executable.
    package static func script(_ name: String) -> String? {
        let path = root + "/scripts/" + name
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Where the scripts keep what they install for a user's package (scripts/plot's matplotlib),
    /// outside the checkout, which a package's build may not write to:
    /// `$XDG_CACHE_HOME/layout-bench`, else `~/.cache/layout-bench`.
    package static var cacheDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/layout-bench" }
        return (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()) + "/.cache/layout-bench"
    }
}
