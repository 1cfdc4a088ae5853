import Foundation
import BenchResults

/// Whether two runs can be compared fairly, from their run.json: the same machine, operating
/// system, toolchain, build configuration and allocator, clean trees, a quiet machine.
package enum RunCompatibility {
    /// One line per difference or concern; empty when both runs look comparable.
    package static func warnings(base: ResultSet, head: ResultSet) -> [String] {
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
            if let own = metadata.load.ownProcesses {
                // A driver's runs: their loads include the driver's own processes, one per core
                // or so; only what others added beyond that is the machine's.
                let others = busiest - Double(own)
                if others > Self.busyMargin(cores: cores, own: own) {
                    warnings.append("\(side) ran while other work loaded the machine (load average \(formatted(busiest)) on "
                        + "\(metadata.machine.activeCores) cores, of which about \(own) the comparison's own processes): expect noisy times")
                }
            } else if busiest > cores {
                warnings.append("\(side) ran on a busy machine (load average \(formatted(busiest)) on \(metadata.machine.activeCores) cores): expect noisy times")
            }
        }
        warnings += notMeasured(base: base.metadata, head: head.metadata)
        warnings += beforeWarnings(base: base.metadata, head: head.metadata)
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

    /// One line per side whose OS did not measure everything (run.json's
    /// `capabilities.not_measured`), naming what: "head ran on Darwin, which did not measure:
    /// peak_rss_reset, cpu_pinning". Nothing for runs that do not record capabilities.
    static func notMeasured(base: RunMetadata?, head: RunMetadata?) -> [String] {
        [("base", base), ("head", head)].compactMap { side, metadata in
            guard let capabilities = metadata?.capabilities, !capabilities.notMeasured.isEmpty else { return nil }
            return "\(side) ran on \(capabilities.os), which did not measure: "
                + capabilities.notMeasured.map(\.name).joined(separator: ", ") + " (run.json's capabilities say why)"
        }
    }

    /// The sides ("base", "head") that ran on a busy machine, when the two are not the paired
    /// rounds of one driver (compare-commits writes `load.own_processes` into both merged sides);
    /// empty otherwise. Busy as the warnings say it: a load average above the cores.
    package static func busySides(base: ResultSet, head: ResultSet) -> [String] {
        if base.metadata?.load.ownProcesses != nil && head.metadata?.load.ownProcesses != nil { return [] }
        return [("base", base), ("head", head)].compactMap { side, result in
            guard let metadata = result.metadata else { return nil }
            let cores = Double(max(metadata.machine.activeCores, 1))
            let busiest = ([metadata.load.start.first] + [metadata.load.end?.first]).compactMap { $0 }.max() ?? 0
            let own = Double(metadata.load.ownProcesses ?? 0)
            return busiest - own > cores ? side : nil
        }
    }

    /// The load beyond its own that a driver running `own` processes on `cores` cores bears before
    /// its times suffer: whatever of the cores its processes leave idle, and half a core more (a
    /// load average never reads exactly its own share).
    static func busyMargin(cores: Double, own: Int) -> Double {
        max(cores - Double(own), 0) + 0.5
    }

    /// The machine before the driver started anything (`RunMetadata.Load.before`): said once when
    /// both sides carry the same record (one driver ran both), else per side. Busy by the CPU others
    /// took in the second the driver watched them (`othersCores`), beyond what its own processes
    /// leave of the cores: a load average lags by minutes, and after a comparison, a build or a test run
    /// that just ended it still reads their load (3.05 before an A/A that followed another, with
    /// nothing running). Records without that second are judged by their load average.
    static func beforeWarnings(base: RunMetadata?, head: RunMetadata?) -> [String] {
        let sides = [("base", base), ("head", head)].compactMap { side, metadata -> (String, RunMetadata, RunMetadata.MachineLoad)? in
            guard let metadata, let before = metadata.load.before else { return nil }
            return (side, metadata, before)
        }
        let shared = sides.count == 2 && sides[0].2 == sides[1].2
        var warnings: [String] = []
        for (side, metadata, before) in shared ? [sides[0]] : sides {
            let cores = Double(max(metadata.machine.activeCores, 1))
            let margin = busyMargin(cores: cores, own: metadata.load.ownProcesses ?? 1)
            guard let load = before.average.first else { continue }
            // What others ran, in cores: the record's number, else the sum of its five busiest
            // (records before the number), else the load average (records before both).
            let others = before.othersCores ?? before.busiest.map { $0.reduce(0) { $0 + cpuShare($1) } } ?? load
            guard others > margin else { continue }
            var facts = "load average \(formatted(load)) on \(metadata.machine.activeCores) cores"
            if let running = before.running { facts += ", \(running) processes running" }
            if let others = before.othersCores { facts += ", others using \(formatted(others)) cores" }
            if let busiest = before.busiest, !busiest.isEmpty { facts += "; busiest: " + busiest.prefix(3).joined(separator: ", ") }
            warnings.append((shared ? "" : "\(side): ") + "the machine was busy before the comparison started anything ("
                + facts + "): expect noisy times")
        }
        return warnings
    }

    /// The share of a core in one of `MachineLoad.busiest`'s entries ("cc1 97% cpu" → 0.97; 0 when
    /// the entry does not end so).
    static func cpuShare(_ entry: String) -> Double {
        let words = entry.split(separator: " ")
        guard words.count >= 2, words.last == "cpu", words[words.count - 2].hasSuffix("%"),
              let value = Double(words[words.count - 2].dropLast()), value.isFinite, value >= 0 else { return 0 }
        return value / 100
    }

    /// A load average with two decimals. run.json is read, not trusted: any Double is shown
    /// (a load of 1e17 as its digits, "inf" or "nan"), never converted to an integer, which traps
    /// past `Int.max`.
    static func formatted(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
