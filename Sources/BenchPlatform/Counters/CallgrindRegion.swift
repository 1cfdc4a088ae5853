import CCallgrind

/// In-process instruction counting with callgrind client requests.
///
/// Under `valgrind --tool=callgrind --instr-atstart=no`, `measure(label:)` zeroes the counters,
/// switches instrumentation on, runs the body, switches it off and dumps the counts to a file whose
/// `desc: Trigger: Client Request: <label>` line carries the label (`CallgrindRunner` parses them).
/// Outside valgrind every request is a no-op costing a few instructions, and the body just runs.
public enum CallgrindRegion {
    /// Whether this process runs under valgrind.
    package static var isUnderValgrind: Bool { lb_running_on_valgrind() != 0 }

    /// Runs `body` as one instrumented region and dumps its instruction count under `label`.
    /// Labels should be unique per process (the runner rejects duplicates) and single-line.
    @inlinable @discardableResult
    package static func measure<T>(label: String, _ body: () throws -> T) rethrows -> T {
        lb_callgrind_zero()
        lb_callgrind_start()
        defer {
            lb_callgrind_stop()
            label.withCString { lb_callgrind_dump($0) }
        }
        return try body()
    }

    /// Runs `body` with instrumentation on but nothing collected, for many small regions in a
    /// row (`Span.measure`). Switching instrumentation on and off flushes valgrind's translations,
    /// so `measure` per operation re-translates all the code it runs each time; toggling
    /// collection does not. The simulated caches start empty once, at the start of the span.
    @inlinable
    package static func span<T>(_ body: (Span) throws -> T) rethrows -> T {
        lb_callgrind_start()
        lb_callgrind_toggle_collect()  // off: only `Span.measure` collects
        defer { lb_callgrind_stop() }
        return try body(Span())
    }

    /// Collected regions inside `span`.
    public struct Span {
        @usableFromInline init() {}

        /// Collects `body` alone and dumps its counts under `label` (the dump zeroes them).
        @inlinable @discardableResult
        package func measure<T>(label: String, _ body: () throws -> T) rethrows -> T {
            lb_callgrind_zero()
            lb_callgrind_toggle_collect()
            defer {
                lb_callgrind_toggle_collect()
                label.withCString { lb_callgrind_dump($0) }
            }
            return try body()
        }
    }
}
