/// The metrics every workload has, which the runner itself measures around any operation: time,
/// allocations, callgrind's counts and peak memory. A workload's own metrics are declared in its
/// folder (`<Workload>Metrics.swift`).
extension Metric {
    /// Every harness-wide metric, in the order `list` and docs/csv.md show them.
    package static let harnessWide: [Metric] = [time, allocBytes, allocs, instructions, estimatedCycles, l1Misses, llMisses, peakRSS]

    /// 5%: package-benchmark's and asv's default.
    package static let time = Metric("time", unit: "ns", .lowerIsBetter, .statistical, threshold: 0.05,
                                    about: "wall-clock time per operation")

    /// 5%: read around timed samples and divided by each run's calibrated batch, so storage that
    /// grows now and then shows a few percent from run to run, more where the processes spread
    /// more (`allocs`, counted over whole untimed passes, catches one extra allocation per
    /// operation exactly). Per process: two quick runs of one binary read `alloc_bytes` of a trace
    /// whose steps allocate unevenly differently, as the median depends on which steps a process
    /// timed and in what batches.
    package static let allocBytes = Metric("alloc_bytes", unit: "bytes", .lowerIsBetter, .perProcess, threshold: 0.05,
                                          about: "bytes allocated per operation (jemalloc)")

    package static let allocs = Metric("allocs", unit: "count", .lowerIsBetter, .exact, counted: .prefix,
                                      about: "allocations per operation")

    /// 0.5%: two builds of unchanged code differ by a few dozen instructions per operation (code
    /// placement, inlining decisions).
    package static let instructions = Metric("instructions", unit: "count", .lowerIsBetter, .exact, threshold: 0.005,
                                            counted: .callgrind, about: "instructions per operation under callgrind (--instructions)")

    /// 1% and a floor of one memory access (35 cycles) an operation: it also counts the cache
    /// simulation's misses, which move with where code and heap landed. The simulated caches see
    /// where the heap and the code landed: one binary, with the heap laid out by another history
    /// of allocations before an operation, counts the same instructions and a few misses more or
    /// fewer, so a small operation's estimate moves by more than its threshold with no change to
    /// its code (docs/experiments/2026-11-27-cache-misses-in-the-gate.md).
    package static let estimatedCycles = Metric(
        "estimated_cycles", unit: "count", .lowerIsBetter, .exact, threshold: 0.01, floor: 35, counted: .callgrind,
        about: "L1 hits + 5 × last-level hits + 35 × memory accesses per operation, from callgrind's cache simulation (--instructions)")

    /// 2% and a floor of one miss: code placement moves a few conflict misses, and small counts
    /// move by more than their share.
    package static let l1Misses = Metric(
        "l1_misses", unit: "count", .lowerIsBetter, .exact, threshold: 0.02, floor: 1, counted: .callgrind,
        about: "first-level cache misses (instruction and data) per operation, callgrind's cache simulation (--instructions)")

    package static let llMisses = Metric("ll_misses", unit: "count", .lowerIsBetter, .exact, threshold: 0.02, floor: 1,
                                        counted: .callgrind, about: "last-level cache misses per operation, callgrind's cache simulation (--instructions)")

    /// 10%: one value per process, moved by the kernel's page accounting.
    package static let peakRSS = Metric("peak_rss", unit: "bytes", .lowerIsBetter, .perProcess, threshold: 0.10,
                                       about: "peak resident memory of the process that ran a scenario × items group")
}
