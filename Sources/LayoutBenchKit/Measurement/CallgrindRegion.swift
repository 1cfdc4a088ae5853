import CCallgrind

/// In-process instruction counting with callgrind client requests.
///
/// Under `valgrind --tool=callgrind --instr-atstart=no`, `measure(label:)` zeroes the counters,
/// switches instrumentation on, runs the body, switches it off and dumps the counts to a file whose
/// `desc: Trigger: Client Request: <label>` line carries the label (`CallgrindRunner` parses them).
/// Outside valgrind every request is a no-op costing a few instructions, and the body just runs.
public enum CallgrindRegion {
    /// Whether this process runs under valgrind.
    public static var isUnderValgrind: Bool { lb_running_on_valgrind() != 0 }

    /// Runs `body` as one instrumented region and dumps its instruction count under `label`.
    /// Labels should be unique per process (the runner rejects duplicates) and single-line.
    @discardableResult
    public static func measure<T>(label: String, _ body: () throws -> T) rethrows -> T {
        lb_callgrind_zero()
        lb_callgrind_start()
        defer {
            lb_callgrind_stop()
            label.withCString { lb_callgrind_dump($0) }
        }
        return try body()
    }
}
