/// The CPU time this process has used, every thread together:
/// `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)` in nanoseconds.
///
/// Where a run's time goes (`PhaseTimes`) is read in CPU time beside wall-clock time: on a shared
/// machine the wall clock also counts the time other processes held the cores, CPU time only
/// this process's work (the threads of `precache-mt` included).
package enum ProcessCPUClock {
    /// Nanoseconds of CPU time since the process started.
    package static func now() -> UInt64 {
        var spec = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec) == 0 else { return 0 }
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
