/// One callgrind dump file: its label (from a client-request trigger) and instruction count.
public struct CallgrindDump: Sendable, Equatable {
    /// The text after `desc: Trigger: Client Request: `, or nil for other triggers
    /// (`Program termination`, a `--dump-every-bb` dump, ...).
    public var label: String?
    /// The whole `desc: Trigger:` value.
    public var trigger: String?
    /// The `Ir` (instructions executed) event count from `totals:` (or `summary:` when there are no
    /// totals; callgrind 3.19 writes `summary: 0` and the real count in `totals:`).
    public var instructions: UInt64?

    public init(label: String?, trigger: String?, instructions: UInt64?) {
        self.label = label
        self.trigger = trigger
        self.instructions = instructions
    }

    /// Parses the text of a callgrind output file (format version 1).
    public static func parse(_ text: String) -> CallgrindDump {
        var trigger: String? = nil
        var events: [Substring] = ["Ir"]
        var summary: UInt64? = nil
        var totals: UInt64? = nil
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
            }
        }
        let prefix = "Client Request: "
        let label = trigger.flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
        let instructions: UInt64?
        if let totals, totals > 0 || summary == nil || summary == 0 { instructions = totals } else { instructions = summary }
        return CallgrindDump(label: label, trigger: trigger, instructions: instructions)
    }
}
