#if os(Linux)
extension PlatformCapabilities {
    package static let osName = "Linux"

    /// Whether `--instructions` can run here (callgrind is Linux's; valgrind must be on PATH too).
    package static let runsCallgrind = true

    static func probes() -> [Probe] {
        let hugePages = (try? readTextFile("/sys/kernel/mm/transparent_hugepage/enabled")) ?? ""
        return [
            Probe(name: "peak_rss", measured: access("/proc/self/status", R_OK) == 0,
                  detail: "VmHWM of /proc/self/status, or getrusage's ru_maxrss where it is unreadable"),
            PeakMemory.canResetPeak
                ? Probe(name: "peak_rss_reset", measured: true, detail: "/proc/self/clear_refs before each scenario × item count")
                : Probe(name: "peak_rss_reset", measured: false,
                        detail: "/proc/self/clear_refs is not writable: a group's peak_rss is its child's peak so far"),
            Probe(name: "load_average", measured: MachineFacts.loadAverage() != nil,
                  detail: "/proc/loadavg at the start and end of the run"),
            Probe(name: "process_table", measured: access("/proc/self/stat", R_OK) == 0,
                  detail: "/proc/<pid>/stat: the busiest processes of others before a comparison (load.before)"),
            Probe(name: "cpu_model", measured: MachineFacts.cpuModel() != nil, detail: "/proc/cpuinfo"),
            Probe(name: "aslr_setting", measured: MachineFacts.aslr() != nil, detail: "/proc/sys/kernel/randomize_va_space"),
            CPUPinning.isAvailable
                ? Probe(name: "cpu_pinning", measured: true, detail: "taskset -c: each side of a duet on a core of its own")
                : Probe(name: "cpu_pinning", measured: false, detail: "taskset (util-linux) is not on PATH: a duet's sides are not pinned"),
            SignalCleanup.canRemoveTrees
                ? Probe(name: "interrupt_tree_removal", measured: true, detail: "getdents64 in the signal handler")
                : Probe(name: "interrupt_tree_removal", measured: false,
                        detail: "the C library has no getdents64: an interrupted run leaves its callgrind and TMPDIR trees"),
            ResultsDirectory.canExchange
                ? Probe(name: "atomic_directory_exchange", measured: true, detail: "renameat2 with RENAME_EXCHANGE")
                : Probe(name: "atomic_directory_exchange", measured: false,
                        detail: "the C library has no renameat2: an existing results directory cannot be replaced in place"),
            hugePages.contains("[always]") || hugePages.contains("[madvise]")
                ? Probe(name: "huge_pages", measured: true, detail: "transparent huge pages (madvise) for the engine's large arrays")
                : Probe(name: "huge_pages", measured: false,
                        detail: "transparent huge pages are off (never) or unknown: large arrays live on base pages"),
            findOnPath("valgrind") != nil
                ? Probe(name: "instructions", measured: true, detail: "callgrind (valgrind), with --instructions")
                : Probe(name: "instructions", measured: false, detail: "valgrind is not on PATH: --instructions is refused"),
        ]
    }
}
#endif
