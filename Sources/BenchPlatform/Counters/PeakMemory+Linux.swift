#if os(Linux)
/// `peak_rss` on Linux: VmHWM and VmRSS of /proc/self/status, the peak reset through
/// /proc/self/clear_refs.
extension PeakMemory {
    /// Resets the high-water mark to the current resident size (writes "5" to
    /// /proc/self/clear_refs). Returns false where that is not possible.
    @discardableResult
    package static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// Whether `resetPeak()` can work here (/proc/self/clear_refs is writable), without resetting.
    package static var canResetPeak: Bool { access("/proc/self/clear_refs", W_OK) == 0 }

    package static func residentBytes() -> ResidentMemory {
        if let status = try? readTextFile("/proc/self/status") {
            let peak = statusField(status, "VmHWM:")
            let current = statusField(status, "VmRSS:")
            if let peak { return ResidentMemory(peakBytes: peak, currentBytes: current) }
        }
        return ResidentMemory(peakBytes: ruMaxRSSBytes(), currentBytes: nil)
    }

    /// getrusage(RUSAGE_SELF).ru_maxrss in bytes (Linux counts it in kilobytes).
    package static func ruMaxRSSBytes() -> UInt64 {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return UInt64(usage.ru_maxrss) * 1024
    }
}
#endif
