/// What this OS lets a run measure, and what it does not: run.json's `capabilities`, so a figure
/// that a platform cannot give is listed as not measured instead of degrading in silence
/// (docs/csv.md). Each OS's probes are in `PlatformCapabilities+Linux.swift` and
/// `PlatformCapabilities+Darwin.swift`; on Linux, with valgrind and taskset installed and
/// transparent huge pages allowed, every capability is measured.
package struct PlatformCapabilities: Codable, Sendable, Equatable {
    /// One capability: its name, and how it is measured or why it is not.
    package struct Entry: Codable, Sendable, Equatable {
        package var name: String
        package var how: String?
        package var why: String?
    }

    /// Every capability the platform layer knows, in this order in both lists.
    package static let names = [
        "peak_rss", "peak_rss_reset", "load_average", "process_table", "cpu_model", "aslr_setting",
        "cpu_pinning", "interrupt_tree_removal", "atomic_directory_exchange", "huge_pages", "instructions",
    ]

    /// The OS the probes ran on ("Linux", "Darwin").
    package var os: String
    package var measured: [Entry]
    package var notMeasured: [Entry]

    /// The error `--instructions` is refused with where callgrind does not run (off Linux), before
    /// anything is loaded, built or measured; nil where it runs.
    package static var instructionsRefusal: String? {
        runsCallgrind ? nil : "--instructions counts under callgrind, which runs on Linux only (this is \(osName)): "
            + "run without --instructions"
    }

    /// Probes this process's platform (cheap: no capability is exercised, only looked for).
    package static func probe() -> PlatformCapabilities {
        var measured: [Entry] = [], notMeasured: [Entry] = []
        for probe in probes() {
            precondition(names.contains(probe.name), "PlatformCapabilities.names lacks \(probe.name)")
            if probe.measured {
                measured.append(Entry(name: probe.name, how: probe.detail))
            } else {
                notMeasured.append(Entry(name: probe.name, why: probe.detail))
            }
        }
        return PlatformCapabilities(os: osName, measured: measured, notMeasured: notMeasured)
    }

    /// One probe's answer: whether `name` is measured here, and how (or why not).
    struct Probe {
        var name: String
        var measured: Bool
        var detail: String
    }
}
