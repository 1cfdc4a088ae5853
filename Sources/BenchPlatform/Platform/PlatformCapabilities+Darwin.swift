#if canImport(Darwin)
extension PlatformCapabilities {
    package static let osName = "Darwin"

    /// callgrind runs on Linux only: `--instructions` is refused here.
    package static let runsCallgrind = false

    static func probes() -> [Probe] {
        [
            Probe(name: "peak_rss", measured: true, detail: "the peak physical footprint of task_info(TASK_VM_INFO)"),
            Probe(name: "peak_rss_reset", measured: false,
                  detail: "Darwin cannot reset a process's peak footprint: a group's peak_rss is its child's peak so far"),
            Probe(name: "load_average", measured: MachineFacts.loadAverage() != nil, detail: "getloadavg (the vm.loadavg sysctl)"),
            Probe(name: "process_table", measured: false,
                  detail: "not read on Darwin: compare-commits records no load.before (the busiest processes of others)"),
            Probe(name: "cpu_model", measured: MachineFacts.cpuModel() != nil, detail: "the machdep.cpu.brand_string sysctl"),
            Probe(name: "aslr_setting", measured: false, detail: "Darwin has no system-wide ASLR setting to read"),
            Probe(name: "cpu_pinning", measured: false,
                  detail: "Darwin has no call that binds a process to a core: a duet's sides are not pinned"),
            Probe(name: "interrupt_tree_removal", measured: false,
                  detail: "Darwin cannot list a directory in a signal handler: an interrupted run leaves its non-empty temporary trees"),
            Probe(name: "atomic_directory_exchange", measured: true, detail: "renamex_np with RENAME_SWAP"),
            Probe(name: "huge_pages", measured: false, detail: "no transparent huge pages: large arrays come from the allocator"),
            Probe(name: "instructions", measured: false, detail: "callgrind runs on Linux only: --instructions is refused"),
        ]
    }
}
#endif
