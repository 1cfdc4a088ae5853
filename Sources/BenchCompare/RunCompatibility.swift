import Foundation
import BenchResults

/// Whether two runs can be compared fairly, from their run.json: the same machine, operating
/// system, toolchain, build configuration and allocator, clean trees, a quiet machine.
public enum RunCompatibility {
    /// One line per difference or concern; empty when both runs look comparable.
    public static func warnings(base: ResultSet, head: ResultSet) -> [String] {
        var warnings: [String] = []
        for (side, result) in [("base", base), ("head", head)] {
            if let problem = result.metadataProblem { warnings.append("\(side): \(problem)") }
        }
        for (side, result) in [("base", base), ("head", head)] {
            guard let metadata = result.metadata else { continue }
            if metadata.toolchain.configuration != "release" {
                warnings.append("\(side) is a \(metadata.toolchain.configuration) build: its times say little about release code")
            }
            if metadata.source.dirty == true {
                warnings.append("\(side) was built from a tree with uncommitted changes (commit \(metadata.source.commit) is not all of it)")
            }
            let cores = Double(max(metadata.machine.activeCores, 1))
            let busiest = ([metadata.load.start.first] + [metadata.load.end?.first]).compactMap { $0 }.max() ?? 0
            if busiest > cores {
                warnings.append("\(side) ran on a busy machine (load average \(formatted(busiest)) on \(metadata.machine.activeCores) cores): expect noisy times")
            }
        }
        guard let b = base.metadata, let h = head.metadata else { return warnings }
        let facts: [(String, String, String)] = [
            ("machine", b.machine.hostname, h.machine.hostname),
            ("CPU", b.machine.cpuModel, h.machine.cpuModel),
            ("cores", String(b.machine.activeCores), String(h.machine.activeCores)),
            ("operating system", b.os.prettyName + " " + b.os.release, h.os.prettyName + " " + h.os.release),
            ("Swift", b.toolchain.swiftVersion ?? "unknown", h.toolchain.swiftVersion ?? "unknown"),
            ("build configuration", b.toolchain.configuration, h.toolchain.configuration),
            ("allocator", b.allocator.name + " " + (b.allocator.version ?? ""), h.allocator.name + " " + (h.allocator.version ?? "")),
            ("ASLR", b.os.aslr ?? "unknown", h.os.aslr ?? "unknown"),
        ]
        for (what, baseValue, headValue) in facts where baseValue != headValue {
            warnings.append("different \(what): base '\(baseValue)', head '\(headValue)'; differences may come from that, not from the code")
        }
        return warnings
    }

    /// A load average with two decimals. run.json is read, not trusted: any Double is shown
    /// (a load of 1e17 as its digits, "inf" or "nan"), never converted to an integer, which traps
    /// past `Int.max`.
    static func formatted(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
