/// Resident set size of this process, in bytes.
package struct ResidentMemory: Sendable, Equatable, Codable {
    /// The high-water mark since the process started (Linux: VmHWM; Darwin: the peak physical
    /// footprint; else getrusage's ru_maxrss).
    package var peakBytes: UInt64
    /// The current resident size (Linux: VmRSS; Darwin: the physical footprint), or nil where it
    /// cannot be read.
    package var currentBytes: UInt64?
}

/// Process memory figures for the `peak_rss` metric. The peak only grows, so the runner resets it
/// (`resetPeak`, Linux ≥ 4.0) before each scenario × item count; where it cannot be reset (Darwin
/// has no call for it: `canResetPeak` is false and run.json lists `peak_rss_reset` as not
/// measured), a peak is the process's peak so far. Each OS's reading is in `PeakMemory+Linux.swift`
/// and `PeakMemory+Darwin.swift`.
package enum PeakMemory {
    /// Parses a "Name:   1234 kB" line of /proc/self/status into bytes.
    static func statusField(_ status: String, _ name: String) -> UInt64? {
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let parts = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let number = parts.first.flatMap({ UInt64($0) }) else { return nil }
            let unit = parts.count > 1 ? parts[1].lowercased() : ""
            return unit == "kb" ? number * 1024 : number
        }
        return nil
    }
}
