#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Resident set size of this process, in bytes.
public struct ResidentMemory: Sendable, Equatable, Codable {
    /// The high-water mark since the process started (Linux: VmHWM, else getrusage ru_maxrss).
    public var peakBytes: UInt64
    /// The current resident size (Linux: VmRSS), or nil where it cannot be read.
    public var currentBytes: UInt64?
}

/// Process memory figures for the `peak_rss` metric. The peak only grows, so the runner resets it
/// (`resetPeak`, Linux ≥ 4.0) before each scenario × item count; where it cannot be reset, a peak is
/// the process's peak so far.
public enum PeakMemory {
    /// Resets the high-water mark to the current resident size (writes "5" to
    /// /proc/self/clear_refs). Returns false where that is not possible.
    @discardableResult
    public static func resetPeak() -> Bool {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
        #else
        return false
        #endif
    }

    public static func residentBytes() -> ResidentMemory {
        #if os(Linux)
        if let status = try? readTextFile("/proc/self/status") {
            let peak = statusField(status, "VmHWM:")
            let current = statusField(status, "VmRSS:")
            if let peak { return ResidentMemory(peakBytes: peak, currentBytes: current) }
        }
        #endif
        return ResidentMemory(peakBytes: ruMaxRSSBytes(), currentBytes: nil)
    }

    /// getrusage(RUSAGE_SELF).ru_maxrss converted to bytes (kilobytes on Linux, bytes on Darwin).
    public static func ruMaxRSSBytes() -> UInt64 {
        var usage = rusage()
        #if os(Linux)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return UInt64(usage.ru_maxrss)
        #else
        return UInt64(usage.ru_maxrss) * 1024
        #endif
    }

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
