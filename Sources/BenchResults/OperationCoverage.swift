/// The prefix of an operation's trace that a run times, when one pass of the whole trace does not
/// fit the sampling budget (an O(n)-per-operation mode at a million items): its first
/// `operations` operations, in order.
///
/// The first repetition decides it (`SamplingPolicy.isDone`); the later repetitions, the
/// allocation counts and the callgrind child then cover exactly these operations, so that every
/// metric of the row describes the same work. Operations whose whole trace is timed have none.
package struct OperationCoverage: Codable, Hashable, Sendable {
    package var scenario: String
    package var mode: String
    package var items: Int
    package var operation: String
    /// Operations timed from the start of the trace.
    package var operations: Int
    /// Operations in one pass of the whole trace.
    package var traceLength: Int

    package init(scenario: String, mode: String, items: Int, operation: String, operations: Int, traceLength: Int) {
        self.scenario = scenario
        self.mode = mode
        self.items = items
        self.operation = operation
        self.operations = operations
        self.traceLength = traceLength
    }

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
