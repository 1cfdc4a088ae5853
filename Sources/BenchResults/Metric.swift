/// A metric the harness writes (docs/csv.md), and everything a reader needs to judge it: its unit,
/// which direction is better, whether it is measured with noise or counted exactly, and the change
/// that counts as a regression.
///
/// Every property is an exhaustive `switch` with no `default`: a new metric that does not say how
/// it is judged does not compile.
public enum Metric: String, Sendable, CaseIterable, Codable {
    case time
    case allocBytes = "alloc_bytes"
    case allocs
    case instructions
    case estimatedCycles = "estimated_cycles"
    case l1Misses = "l1_misses"
    case llMisses = "ll_misses"
    case peakRSS = "peak_rss"
    case recall
    case elements
    case measurements
    case cellsCreated = "cells_created"
    case dequeues
    case peakPool = "peak_pool"
    case mostVisible = "most_visible"
    case cellsNeeded = "cells_needed"
    case bytesPerRow = "bytes_per_row"
    case scrollCorrection = "scroll_correction"
    case wrongHeights = "wrong_heights"
    case constraints
    case pivots
    case anchorJump = "anchor_jump"
    case sizeChurn = "size_churn"
    case laneChanges = "lane_changes"
    case movedVisible = "moved_visible"
    case columnSpread = "column_spread"
    // Where a self-sizing measurement's time goes (docs/text.md): timed as totals over one
    // untimed pass, and counted exactly under --instructions.
    case shapingTime = "shaping_time"
    case breakingTime = "breaking_time"
    case solveTime = "solve_time"
    case shapingInstructions = "shaping_instructions"
    case breakingInstructions = "breaking_instructions"
    case solveInstructions = "solve_instructions"
    case cacheInstructions = "cache_instructions"
    /// An operation timed at several thread counts (`precache-mt`): its 1-thread median over each sample's time.
    case speedup

    /// Which direction of change is an improvement.
    public enum Direction: String, Sendable, Equatable {
        case lowerIsBetter = "lower"
        case higherIsBetter = "higher"
        /// Neither: the metric describes the work itself (what a query returned, what a trace
        /// shows). A difference is reported as "the runs measured different work", not judged.
        case neither
    }

    /// How a difference between two runs is decided.
    public enum Kind: String, Sendable, Equatable {
        /// Noisy measurements: Mann–Whitney U and a bootstrap interval of the ratio of medians.
        case statistical
        /// Counts that repeat exactly for the same code and input: their totals over the steps both
        /// sides counted decide (`ExactTotals`).
        case exact
        /// A value that depends on the process that measured it, not only on the code: `peak_rss`
        /// (one value per process, moved by the kernel's page accounting) and `alloc_bytes` (read
        /// around timed samples, whose batches and coverage of the trace follow each process's
        /// timing). Judged on the repetitions like time (a change only from
        /// `RowComparison.Options.repetitionsForChange` repetitions a side, at a threshold widened to the
        /// processes' spread); exactly when every sample on both sides is one value; with one process
        /// on a side never `regressed` or `improved`, as one process says nothing of the next.
        case perProcess = "per-process"
    }

    /// The CSV's `unit` column.
    public var unit: String {
        switch self {
        case .time, .shapingTime, .breakingTime, .solveTime: return "ns"
        case .allocBytes, .peakRSS, .bytesPerRow: return "bytes"
        case .scrollCorrection, .anchorJump, .sizeChurn, .columnSpread: return "pt"
        case .recall: return "fraction"
        case .speedup: return "ratio"
        case .allocs, .instructions, .estimatedCycles, .l1Misses, .llMisses, .elements, .measurements, .cellsCreated, .dequeues, .peakPool, .mostVisible,
             .cellsNeeded, .wrongHeights, .constraints, .pivots, .laneChanges, .movedVisible,
             .shapingInstructions, .breakingInstructions, .solveInstructions, .cacheInstructions:
            return "count"
        }
    }

    /// The values the metric can take. A results file holding any other is refused, at its
    /// line, by `compare` and `export` (docs/csv.md): costs and counts are never negative, a
    /// fraction lies within 0…1; `scroll_correction` is signed (a change above the viewport
    /// moves the content up or down).
    public var possibleValues: ClosedRange<Double> {
        let any = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        let nonNegative = 0...Double.greatestFiniteMagnitude
        switch self {
        case .scrollCorrection: return any
        case .recall: return 0...1
        case .time, .allocBytes, .allocs, .instructions, .estimatedCycles, .l1Misses, .llMisses, .peakRSS, .elements, .measurements, .cellsCreated,
             .dequeues, .peakPool, .mostVisible, .cellsNeeded, .bytesPerRow, .wrongHeights, .constraints, .pivots, .anchorJump, .sizeChurn,
             .laneChanges, .movedVisible, .columnSpread,
             .shapingTime, .breakingTime, .solveTime, .shapingInstructions, .breakingInstructions, .solveInstructions, .cacheInstructions,
             .speedup:
            return nonNegative
        }
    }

    /// What one value means, for `layout-bench list` and the docs.
    public var about: String {
        switch self {
        case .time: return "wall-clock time per operation"
        case .allocBytes: return "bytes allocated per operation (jemalloc)"
        case .allocs: return "allocations per operation"
        case .instructions: return "instructions per operation under callgrind (--instructions)"
        case .estimatedCycles: return "L1 hits + 5 × last-level hits + 35 × memory accesses per operation, from callgrind's cache simulation (--instructions)"
        case .l1Misses: return "first-level cache misses (instruction and data) per operation, callgrind's cache simulation (--instructions)"
        case .llMisses: return "last-level cache misses per operation, callgrind's cache simulation (--instructions)"
        case .peakRSS: return "peak resident memory of the process that ran a scenario × items group"
        case .recall: return "fraction of the exact answer a query returned (1 for exact modes)"
        case .elements: return "elements a query returned"
        case .measurements: return "template-cell measurements per operation"
        case .cellsCreated: return "cells created per operation"
        case .dequeues: return "cells dequeued over the scroll trace (one per appearance)"
        case .peakPool: return "most cells waiting in the reuse pool at once"
        case .mostVisible: return "most cells visible at once along the trace"
        case .cellsNeeded: return "cells the trace needs at the least (the most visible at once, per identifier)"
        case .bytesPerRow: return "bytes the offsets structure holds per row"
        case .scrollCorrection: return "how far the content under the viewport moved when estimates were replaced"
        case .wrongHeights: return "rows whose cached height differs from a fresh measurement"
        case .constraints: return "constraints in the solver during a cell measurement (the width constraint or edit variable included)"
        case .pivots: return "simplex pivots of one cell measurement (both passes; a fresh solver's construction included)"
        case .anchorJump:
            return "how far the row at the top of the viewport moved on screen, summed over the trace's changes (a frame's measurements count as one); 0 when anchored exactly"
        case .sizeChurn: return "how much the content height the scroll bar shows changed, summed over the trace's changes (a frame's measurements count as one)"
        case .laneChanges: return "already-placed waterfall items a change moved to another column"
        case .movedVisible: return "items visible in the change's viewport that moved more than 0.5 pt on screen"
        case .columnSpread: return "tallest minus shortest column bottom of the changed waterfall section after a change (packing)"
        case .shapingTime: return "time shaping label text (HarfBuzz) per operation, a total over one untimed pass of the trace with the text measurer's clock on"
        case .breakingTime: return "time finding break opportunities (ICU) and filling lines per operation, a total over one untimed pass"
        case .solveTime: return "the rest of the cell measurements' time per operation over that pass: the constraint solve (and text-cache look-ups)"
        case .shapingInstructions: return "instructions shaping label text per operation (--instructions; inclusive of HarfBuzz)"
        case .breakingInstructions: return "instructions finding break opportunities (ICU) and filling lines per operation (--instructions)"
        case .solveInstructions: return "instructions of cell measurements outside shaping and breaking per operation: the constraint solve (--instructions)"
        case .cacheInstructions: return "instructions outside cell measurements per operation: the height cache and the table's own work (--instructions)"
        case .speedup: return "an operation timed at several thread counts (`precache-mt`): its median time at the first count over this sample's time"
        }
    }

    /// Which direction is better. Costs are lower-is-better; `recall` is higher-is-better; what
    /// describes the work (elements returned, the trace's own counts) is neither.
    public var direction: Direction {
        switch self {
        case .time, .allocBytes, .allocs, .instructions, .estimatedCycles, .l1Misses, .llMisses, .peakRSS, .measurements, .cellsCreated, .peakPool,
             .bytesPerRow, .scrollCorrection, .wrongHeights, .constraints, .pivots, .anchorJump, .sizeChurn,
             .laneChanges, .movedVisible, .columnSpread,
             .shapingTime, .breakingTime, .solveTime, .shapingInstructions, .breakingInstructions, .solveInstructions, .cacheInstructions:
            return .lowerIsBetter
        case .recall, .speedup:
            return .higherIsBetter
        case .elements, .dequeues, .mostVisible, .cellsNeeded:
            return .neither
        }
    }

    /// How a difference is decided: time is statistical, `peak_rss` and `alloc_bytes` per process,
    /// every other count exact. Two quick runs of one binary read `alloc_bytes` of `reuse-scroll
    /// set-scan` at 52–68 B per step and of `waterfall-append full` at 99–132 kB per append: the
    /// median of a trace whose steps allocate unevenly depends on which steps a process timed and
    /// in what batches.
    public var kind: Kind {
        switch self {
        case .time, .shapingTime, .breakingTime, .solveTime, .speedup: return .statistical
        case .peakRSS, .allocBytes: return .perProcess
        case .allocs, .instructions, .estimatedCycles, .l1Misses, .llMisses, .recall, .elements, .measurements, .cellsCreated, .dequeues,
             .peakPool, .mostVisible, .cellsNeeded, .bytesPerRow, .scrollCorrection, .wrongHeights, .constraints, .pivots, .anchorJump, .sizeChurn,
             .laneChanges, .movedVisible, .columnSpread,
             .shapingInstructions, .breakingInstructions, .solveInstructions, .cacheInstructions:
            return .exact
        }
    }

    /// The smallest change per operation, in the metric's unit, that a count of callgrind's cache
    /// simulation may claim, whatever its relative size (0: none). The simulated caches see where
    /// the heap and the code landed: one binary, with the heap laid out by another history of
    /// allocations before an operation, counts the same instructions and a few misses more or
    /// fewer (`offsets-per-identifier` fenwick `update` at 30,000 items: 0.94 or 7.35 first-level
    /// misses, 964 or 990 estimated cycles an update), so a small operation's estimate moves by
    /// more than its threshold with no change to its code. The floor is one memory access of the
    /// estimate (35 cycles) and one miss.
    public var placementFloor: Double {
        switch self {
        case .estimatedCycles: return 35
        case .l1Misses, .llMisses: return 1
        default: return 0
        }
    }

    /// The relative change beyond which a row is regressed or improved (0.05 = 5%).
    ///
    /// - time 5% (package-benchmark's and asv's default);
    /// - peak_rss 10%: one value per process, moved by the kernel's page accounting;
    /// - instructions 0.5%: two builds of unchanged code differ by a few dozen instructions per
    ///   operation (code placement, inlining decisions);
    /// - estimated_cycles 1% (and `placementFloor`): it also counts the cache simulation's misses,
    ///   which move with where code and heap landed; an operation whose instructions two builds
    ///   count alike moved by 0.36–0.62% (`waterfall-edit stable-lanes height-change`, 173 against
    ///   183–189 first-level misses; docs/experiments/2026-11-27-cache-misses-in-the-gate.md);
    /// - l1_misses and ll_misses 2%: code placement moves a few conflict misses, and small counts
    ///   move by more than their share;
    /// - alloc_bytes 5%: read around timed samples and divided by each run's calibrated batch, so
    ///   storage that grows now and then shows a few percent from run to run, more where the
    ///   processes spread more (per process, above; `allocs`, counted over whole untimed passes,
    ///   catch one extra allocation per operation exactly);
    /// - every other count 0.1%: one stray event in a thousand never fails a comparison, and a
    ///   change from 0 to anything always does.
    public var defaultThreshold: Double {
        switch self {
        case .time, .shapingTime, .breakingTime, .solveTime, .speedup: return 0.05
        case .peakRSS: return 0.10
        case .instructions, .shapingInstructions, .breakingInstructions, .solveInstructions, .cacheInstructions: return 0.005
        case .estimatedCycles: return 0.01
        case .l1Misses, .llMisses: return 0.02
        case .allocBytes: return 0.05
        case .allocs, .recall, .elements, .measurements, .cellsCreated, .dequeues, .peakPool, .mostVisible,
             .cellsNeeded, .bytesPerRow, .scrollCorrection, .wrongHeights, .constraints, .pivots, .anchorJump, .sizeChurn,
             .laneChanges, .movedVisible, .columnSpread:
            return 0.001
        }
    }
}
