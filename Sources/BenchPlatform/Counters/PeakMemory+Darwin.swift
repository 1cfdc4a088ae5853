#if canImport(Darwin)
/// `peak_rss` on Apple platforms: the physical footprint `task_info(TASK_VM_INFO)` reports (what
/// Xcode's memory gauge and jetsam count), its peak since the process started. Darwin has no call
/// that lowers the recorded peak, so a group's peak is the process's peak so far.
extension PeakMemory {
    /// Darwin cannot reset the peak: always false (run.json lists `peak_rss_reset` as not measured).
    @discardableResult
    package static func resetPeak() -> Bool { false }

    package static var canResetPeak: Bool { false }

    package static func residentBytes() -> ResidentMemory {
        var info = task_vm_info_data_t()
        // TASK_VM_INFO_COUNT, a macro Swift does not import: the structure's size in natural_t words.
        var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), $0, &count)
            }
        }
        guard status == KERN_SUCCESS else { return ResidentMemory(peakBytes: ruMaxRSSBytes(), currentBytes: nil) }
        return ResidentMemory(peakBytes: UInt64(clamping: info.ledger_phys_footprint_peak), currentBytes: info.phys_footprint)
    }

    /// getrusage(RUSAGE_SELF).ru_maxrss (Darwin counts it in bytes).
    package static func ruMaxRSSBytes() -> UInt64 {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return UInt64(usage.ru_maxrss)
    }
}
#endif
