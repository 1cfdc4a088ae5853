import BenchPlatform
import BenchScenarios

/// Where the time of one scenario × items group went, phase by phase (seconds of wall-clock time),
/// for the progress output: building the shared fixture, building the modes (with verification in
/// the first repetition), warm-up, timed sampling, and the untimed allocation-counting passes.
struct PhaseTimes: CustomStringConvertible {
    var fixture = 0.0
    var build = 0.0
    var verification = 0.0
    var warmUp = 0.0
    var sampling = 0.0
    var allocations = 0.0

    /// Runs `body`, adding its wall-clock time to the phase at `phase`.
    mutating func time<T>(_ phase: WritableKeyPath<PhaseTimes, Double>, _ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now()
        defer { self[keyPath: phase] += Double(MonotonicClock.now() &- start) / 1e9 }
        return try body()
    }

    var total: Double { fixture + build + verification + warmUp + sampling + allocations }

    var description: String {
        let parts: [(String, Double)] = [
            ("fixture", fixture), ("build", build), ("verification", verification), ("warm-up", warmUp),
            ("sampling", sampling), ("allocation counts", allocations),
        ]
        return String(format: "%.1f s (", total)
            + parts.filter { $0.1 > 0 }.map { $0.0 + String(format: " %.1f s", $0.1) }.joined(separator: ", ") + ")"
    }
}
