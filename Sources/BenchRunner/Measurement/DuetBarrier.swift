import BenchPlatform

/// Where the two processes of a duet (the two commits of one scenario group in
/// `scripts/compare-commits`, pinned to one core) meet before they sample; then `DuetTurns`
/// alternates their sampling turns, so that both sample through the same spells of that core
/// (after "Duet Benchmarking", Bulej et al., ICPE 2020, who run the two at once). Without the
/// barrier, one process would build fixtures while the other samples.
///
/// `run --duet DIRECTORY:SELF:PARTNER` (hidden; `RunSession.duet`, carried to the repetition's child in
/// its `RepetitionRequest`) turns it on: before sampling a group, the process
/// creates DIRECTORY/KEY.SELF and waits (polling every 0.1 ms, outside any timed region) until
/// DIRECTORY/KEY.PARTNER exists, at most `timeoutSeconds`; then it samples whether or not the
/// partner came (a commit without the group, or without duet support, never arrives). DIRECTORY
/// should be absolute: each side runs in its own commit's worktree. (Harnesses before the option
/// read the same specification from the environment variable LAYOUT_BENCH_DUET_TURNS; the driver
/// sets it for those children only, `ChildHarness` in BenchDriver.)
package struct DuetBarrier: Sendable {
    package var directory: String
    package var selfName: String
    package var partnerName: String
    package static let timeoutSeconds: Double = 60

    package init(directory: String, selfName: String, partnerName: String) {
        self.directory = directory
        self.selfName = selfName
        self.partnerName = partnerName
    }

    /// DIRECTORY:SELF:PARTNER, as `run --duet` takes it.
    package var specification: String { "\(directory):\(selfName):\(partnerName)" }

    /// DIRECTORY:SELF:PARTNER, or nil when malformed.
    package init?(specification: String) {
        let parts = specification.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty, parts[1] != parts[2] else { return nil }
        self.init(directory: parts[0], selfName: parts[1], partnerName: parts[2])
    }

    /// KEY as a file name.
    static func safe(_ key: String) -> String {
        String(key.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    /// Arrives at the barrier KEY and waits for the partner; true if it came in time.
    @discardableResult
    package func meet(_ key: String, timeoutSeconds: Double = DuetBarrier.timeoutSeconds) -> Bool {
        let safeKey = Self.safe(key)
        let mine = "\(directory)/\(safeKey).\(selfName)"
        let theirs = "\(directory)/\(safeKey).\(partnerName)"
        let descriptor = open(mine, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        // No way to tell the partner (no such directory): it would wait its timeout out, and so would we.
        guard descriptor >= 0 else { return false }
        close(descriptor)
        let start = MonotonicClock.now()
        var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
        while access(theirs, F_OK) != 0 {
            if Double(MonotonicClock.now() &- start) / 1e9 > timeoutSeconds { return false }
            nanosleep(&pause, nil)
        }
        return true
    }
}
