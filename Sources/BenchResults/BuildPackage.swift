import Foundation

/// The package that built this executable: the folder of the `Package.swift` above the source
/// file that called `LayoutBenchCLI.main(layouts:)` (`layout-bench`'s own, or a user's package).
/// run.json asks git there for its commit and dirty state, not in the current directory, which
/// may be any folder (or another package's) when the run starts.
package enum BuildPackage {
    /// Set once, by `LayoutBenchCLI.main(layouts:)` before the command line is parsed; nil in
    /// the tests and the other executables (run.json then asks in the current directory).
    nonisolated(unsafe) package static var directory: String?

    /// The nearest folder above `sourceFile` that holds a `Package.swift`; nil when there is none
    /// (a binary run on a machine without its sources).
    package static func root(of sourceFile: String) -> String? {
        var url = URL(fileURLWithPath: sourceFile).standardizedFileURL.deletingLastPathComponent()
        while url.path != "/" && !url.path.isEmpty {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return nil
    }
}
