/// The prefix of an operation's trace that a run times, when one pass of the whole trace does not
/// fit the sampling budget (an O(n)-per-operation mode at a million items): its first
/// `operations` operations, in order.
///
/// The first repetition decides it (`SamplingPolicy.isDone`); the later repetitions, the
/// allocation counts and the callgrind child then cover exactly these operations, so that every
/// metric of the row describes the same work. Operations whose whole trace is timed have none.
///
/// The prefix follows each run's speed: two runs of one binary may cover 64 and 32 operations of
/// one trace. What the counts of a row are then depends on `steps`: a consuming operation's counts
/// are one per operation, and `ExactTotals` sums both sides over the operations both counted; a
/// batchable one's are means per operation over each pass of the prefix, which no alignment of
/// values can make describe the same operations (`compare` leaves them unjudged, `TracePrefixes`).
package struct OperationCoverage: Codable, Hashable, Sendable {
    /// What one value of the operation's counts (`allocs`, callgrind's) covers: one operation, or one
    /// pass of the prefix (a mean per operation over `operations`).
    package enum Steps: String, Codable, Hashable, Sendable {
        /// A consuming operation: one value per operation, in trace order.
        case operations
        /// A batchable operation: one value per pass of the prefix, a mean per operation over it.
        case passes
    }

    package var scenario: String
    package var mode: String
    package var items: Int
    package var operation: String
    /// Operations timed from the start of the trace.
    package var operations: Int
    /// Operations in one pass of the whole trace.
    package var traceLength: Int
    /// What one value of the counts covers (`steps` in run.json); nil in runs written before it
    /// was recorded (`TracePrefixes` then tells from the number of values).
    package var steps: Steps?

    package init(scenario: String, mode: String, items: Int, operation: String, operations: Int, traceLength: Int,
                steps: Steps? = nil) {
        self.scenario = scenario
        self.mode = mode
        self.items = items
        self.operation = operation
        self.operations = operations
        self.traceLength = traceLength
        self.steps = steps
    }

    /// The most operations of a trace the callgrind pass counts (`OperationDriver.countedOperationsLimit`):
    /// two prefixes of at least this many give instructions over the same operations (a metric
    /// `Metric.Counting.callgrind`).
    package static let callgrindLimit = 4_096

    /// The untimed passes that count a batchable operation's allocations, and the fewest values a
    /// consuming one's hold (`BenchmarkRunner.allocationCountPasses`).
    package static let allocationPasses = 5

    /// The samples of a prefix to keep out of `samples` timed within the budget: the largest of
    /// `minimum`, and the powers of two above it, that is at most `samples` (5, 8, 16, 32, … for
    /// the default policy). A run on a slightly faster or slower machine keeps the same prefix, so
    /// the instruction counts of two runs describe the same operations.
    package static func stablePrefix(samples: Int, minimum: Int) -> Int {
        guard samples > minimum else { return samples }
        var power = 1
        while power * 2 <= samples { power *= 2 }
        return power > minimum ? power : minimum
    }

    /// Identifies the operation (everything but the counts).
    package var key: String { "\(scenario)\u{1F}\(mode)\u{1F}\(items)\u{1F}\(operation)" }

    package static func key(scenario: String, mode: String, items: Int, operation: String) -> String {
        "\(scenario)\u{1F}\(mode)\u{1F}\(items)\u{1F}\(operation)"
    }
}
