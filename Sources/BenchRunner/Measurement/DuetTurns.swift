import BenchPlatform
/// The two processes of a duet (`DuetBarrier`) pinned to one core take their sampling turns in
/// alternation: one samples a turn (16 samples or 1 ms of one operation, `SamplingTurn.duet`)
/// while the other waits, then hands the turn over through a FIFO. Both then sample
/// through the same spells of that core, at a grain of a millisecond: on a shared cloud host the
/// speed of a core moves by 30% and more within a second, and two processes on two cores, or one
/// after the other, saw different speeds.
///
/// The side whose name sorts first starts. A side that has sampled everything says so ("done"),
/// and the other samples on alone; a partner silent for `timeoutMilliseconds` is taken for gone.
/// Waiting happens between turns, outside every timed region.
package final class DuetTurns {
    private let mine: Int32
    private let theirs: Int32
    private var holding: Bool
    private var partnerDone = false
    package static let timeoutMilliseconds: Int32 = 10_000

    /// The FIFO a side reads its turns from; made before the barrier, so that after it both exist.
    package static func fifoPath(_ barrier: DuetBarrier, key: String, side: String) -> String {
        "\(barrier.directory)/\(DuetBarrier.safe(key)).\(side).turns"
    }

    /// Makes this side's FIFO (call before `DuetBarrier.meet`).
    package static func prepare(_ barrier: DuetBarrier, key: String) -> Bool {
        mkfifo(fifoPath(barrier, key: key, side: barrier.selfName), 0o600) == 0
    }

    /// Opens both FIFOs (after the barrier); nil if either cannot be opened.
    package init?(_ barrier: DuetBarrier, key: String) {
        // Read-write opens never block on a FIFO and keep it open whatever the other side does.
        let mine = open(Self.fifoPath(barrier, key: key, side: barrier.selfName), O_RDWR | O_CLOEXEC)
        let theirs = open(Self.fifoPath(barrier, key: key, side: barrier.partnerName), O_RDWR | O_CLOEXEC)
        guard mine >= 0, theirs >= 0 else {
            if mine >= 0 { close(mine) }
            if theirs >= 0 { close(theirs) }
            return nil
        }
        self.mine = mine
        self.theirs = theirs
        holding = barrier.selfName < barrier.partnerName
    }

    deinit {
        close(mine)
        close(theirs)
    }

    /// Waits until it is this side's turn (or the partner is done or gone).
    package func take() {
        while !holding && !partnerDone {
            var request = pollfd(fd: mine, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Self.timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { partnerDone = true; return }
            var byte: UInt8 = 0
            guard read(mine, &byte, 1) == 1 else { partnerDone = true; return }
            if byte == UInt8(ascii: "D") { partnerDone = true } else { holding = true }
        }
    }

    /// Hands the turn to the partner.
    package func pass() {
        guard holding, !partnerDone else { return }
        holding = false
        send("T")
    }

    /// Tells the partner this side has sampled everything.
    package func finish() {
        holding = false
        send("D")
    }

    private func send(_ character: Unicode.Scalar) {
        var byte = UInt8(ascii: character)
        while write(theirs, &byte, 1) < 0 && errno == EINTR {}
    }
}
