import BenchPlatform

/// Where the time of one scenario × items group went, phase by phase, for the progress output:
/// building the shared fixture, building the modes (with verification in the first repetition),
/// warm-up, timed sampling, and the untimed allocation-counting passes. Each phase in seconds of
/// wall-clock time and of this process's CPU time (`ProcessCPUClock`): on a shared machine the
/// wall clock counts the other processes' turns too, so comparisons of where the time goes read
/// the CPU seconds.
struct PhaseTimes: CustomStringConvertible {
    /// Seconds of one phase: wall-clock and CPU.
    struct Seconds {
        var wall = 0.0
        var cpu = 0.0

        static func + (a: Seconds, b: Seconds) -> Seconds { Seconds(wall: a.wall + b.wall, cpu: a.cpu + b.cpu) }
    }

    var fixture = Seconds()
    var build = Seconds()
    var verification = Seconds()
    var warmUp = Seconds()
    var sampling = Seconds()
    var allocations = Seconds()

    /// Runs `body`, adding its wall-clock and CPU time to the phase at `phase`.
    mutating func time<T>(_ phase: WritableKeyPath<PhaseTimes, Seconds>, _ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now(), cpuStart = ProcessCPUClock.now()
        defer {
            self[keyPath: phase].wall += Double(MonotonicClock.now() &- start) / 1e9
            self[keyPath: phase].cpu += Double(ProcessCPUClock.now() &- cpuStart) / 1e9
        }
        return try body()
    }

    /// Phase by phase, the sum of two groups' times.
    static func + (a: PhaseTimes, b: PhaseTimes) -> PhaseTimes {
        PhaseTimes(
            fixture: a.fixture + b.fixture, build: a.build + b.build, verification: a.verification + b.verification,
            warmUp: a.warmUp + b.warmUp, sampling: a.sampling + b.sampling, allocations: a.allocations + b.allocations)
    }

    var total: Seconds { fixture + build + verification + warmUp + sampling + allocations }

    /// `12.3 s (CPU 11.8 s: fixture 0.1 s, verification 8.0 s, …)`: the wall-clock total, then
    /// the CPU seconds of each phase that took any.
    var description: String {
        let parts: [(String, Seconds)] = [
            ("fixture", fixture), ("build", build), ("verification", verification), ("warm-up", warmUp),
            ("sampling", sampling), ("allocation counts", allocations),
        ]
        return String(format: "%.1f s (CPU %.1f s: ", total.wall, total.cpu)
            + parts.filter { $0.1.wall > 0 || $0.1.cpu > 0 }.map { $0.0 + String(format: " %.1f s", $0.1.cpu) }.joined(separator: ", ")
            + ")"
    }
}
