/// One callgrind dump file: its label (from a client-request trigger) and instruction count.
package struct CallgrindDump: Sendable, Equatable {
    /// The text after `desc: Trigger: Client Request: `, or nil for other triggers
    /// (`Program termination`, a `--dump-every-bb` dump, ...).
    package var label: String?
    /// The whole `desc: Trigger:` value.
    package var trigger: String?
    /// The `Ir` (instructions executed) event count from `totals:` (or `summary:` when there are no
    /// totals; callgrind 3.19 writes `summary: 0` and the real count in `totals:`).
    package var instructions: UInt64?
    /// Every event of `totals:` by name (`Ir`, and with `--cache-sim=yes` `Dr`, `Dw`, `I1mr`,
    /// `D1mr`, `D1mw`, `ILmr`, `DLmr`, `DLmw`); omitted trailing counts are 0.
    package var totals: [String: UInt64] = [:]

    /// Instructions by function (self and inclusive).
    package var profile = CallgrindProfile()

    /// What the cache simulation of the dump says, or nil without it.
    package var cacheCounts: CacheCounts? { CacheCounts(totals) }

    /// Parses the text of a callgrind output file (format version 1).
    package static func parse(_ text: String) -> CallgrindDump {
        var trigger: String? = nil
        var events: [Substring] = ["Ir"]
        var summary: UInt64? = nil
        var totals: UInt64? = nil
        var totalEvents: [String: UInt64] = [:]
        func count(_ values: Substring) -> UInt64? {
            let numbers = values.split(separator: " ", omittingEmptySubsequences: true)
            guard let index = events.firstIndex(of: "Ir") else { return nil }
            // Trailing zero counts may be omitted.
            if index >= numbers.count { return numbers.isEmpty ? nil : 0 }
            return UInt64(numbers[index])
        }
        // Split on any line end; "\r\n" is a single Character in Swift.
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("desc: Trigger:") {
                trigger = String(line.dropFirst("desc: Trigger:".count).drop(while: { $0 == " " }))
            } else if line.hasPrefix("events:") {
                events = line.dropFirst("events:".count).split(separator: " ", omittingEmptySubsequences: true)
            } else if line.hasPrefix("summary:") {
                summary = count(line.dropFirst("summary:".count))
            } else if line.hasPrefix("totals:") {
                totals = count(line.dropFirst("totals:".count))
                let numbers = line.dropFirst("totals:".count).split(separator: " ", omittingEmptySubsequences: true)
                for (index, event) in events.enumerated() {
                    totalEvents[String(event)] = index < numbers.count ? UInt64(numbers[index]) ?? 0 : 0
                }
            }
        }
        let prefix = "Client Request: "
        let label = trigger.flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
        let instructions: UInt64?
        if let totals, totals > 0 || summary == nil || summary == 0 { instructions = totals } else { instructions = summary }
        var dump = CallgrindDump(label: label, trigger: trigger, instructions: instructions, totals: totalEvents)
        dump.profile = CallgrindProfile.parse(text)
        return dump
    }
}

/// The memory system as callgrind's cache simulation sees one region (`--cache-sim=yes`): first-
/// level and last-level misses of instruction fetches, data reads and data writes, and the cycle
/// estimate iai-callgrind uses, L1 hits + 5 × last-level hits + 35 × memory accesses. Exact and
/// repeatable like the instruction count, and it moves when only locality changes (an array of
/// structures walked for one field, a cold array read on the hot path).
package struct CacheCounts: Sendable, Equatable {
    /// Every access: instruction fetches plus data reads and writes.
    package var accesses: UInt64
    /// Accesses that missed the first-level caches (I1 and D1).
    package var l1Misses: UInt64
    /// Accesses that missed the last-level cache too (went to memory).
    package var llMisses: UInt64

    package var l1Hits: UInt64 { accesses - l1Misses }
    package var llHits: UInt64 { l1Misses - llMisses }
    package var estimatedCycles: UInt64 { l1Hits + 5 * llHits + 35 * llMisses }

    package init(accesses: UInt64, l1Misses: UInt64, llMisses: UInt64) {
        self.accesses = accesses
        self.l1Misses = l1Misses
        self.llMisses = llMisses
    }

    /// From a dump's totals; nil unless every event of the cache simulation is there, or the
    /// counts are inconsistent (more misses than accesses).
    init?(_ totals: [String: UInt64]) {
        let names = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]
        guard names.allSatisfy({ totals[$0] != nil }) else { return nil }
        let t = { totals[$0]! }
        let accesses = t("Ir") + t("Dr") + t("Dw")
        let l1 = t("I1mr") + t("D1mr") + t("D1mw"), ll = t("ILmr") + t("DLmr") + t("DLmw")
        guard l1 <= accesses, ll <= l1 else { return nil }
        self.init(accesses: accesses, l1Misses: l1, llMisses: ll)
    }
}
