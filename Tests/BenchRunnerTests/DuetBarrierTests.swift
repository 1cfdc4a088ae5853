import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare
@testable import LayoutTestSupport

/// `DuetBarrier`: two processes (here threads) meet before sampling; one alone waits out its timeout.
@Suite struct DuetBarrierTests {
    /// The base arrives on a thread of its own (a blocking wait: not on the test's task pool), the
    /// head 0.2 s later: the base waits for it, no longer.
    @Test func theTwoSidesMeet() throws {
        let directory = try makeScratchDirectory("duet")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = DuetBarrier(directory: directory, selfName: "base", partnerName: "head")
        let head = DuetBarrier(directory: directory, selfName: "head", partnerName: "base")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var met = false, waited = 0.0
        let thread = Thread {
            let start = MonotonicClock.now()
            met = base.meet("list-query-1000", timeoutSeconds: 20)
            waited = Double(MonotonicClock.now() &- start) / 1e9
            done.signal()
        }
        thread.start()
        usleep(200_000)
        let late = head.meet("list-query-1000", timeoutSeconds: 20)
        done.wait()
        #expect(met && late)
        #expect(waited >= 0.15 && waited < 10, "\(waited) s")
    }

    @Test func aSideAloneGivesUpAfterItsTimeout() throws {
        let directory = try makeScratchDirectory("duet")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = MonotonicClock.now()
        let met = DuetBarrier(directory: directory, selfName: "head", partnerName: "base").meet("g", timeoutSeconds: 0.3)
        let waited = Double(MonotonicClock.now() &- start) / 1e9
        #expect(!met)
        #expect(waited >= 0.3 && waited < 3)
        // Another key is another barrier: the partner's arrival at "g" does not open "h".
        _ = DuetBarrier(directory: directory, selfName: "base", partnerName: "head").meet("g", timeoutSeconds: 0)
        #expect(!DuetBarrier(directory: directory, selfName: "head", partnerName: "base").meet("h", timeoutSeconds: 0.1))
        #expect(DuetBarrier(directory: directory, selfName: "head", partnerName: "base").meet("g", timeoutSeconds: 0.1))
        // A directory that does not exist: no wait at all.
        let missing = MonotonicClock.now()
        #expect(!DuetBarrier(directory: directory + "/missing", selfName: "head", partnerName: "base").meet("g", timeoutSeconds: 5))
        #expect(Double(MonotonicClock.now() &- missing) / 1e9 < 1)
    }

    @Test func readsItsSpecification() {
        let barrier = DuetBarrier(specification: "/tmp/d:base:head")
        #expect(barrier?.directory == "/tmp/d" && barrier?.selfName == "base" && barrier?.partnerName == "head")
        #expect(DuetBarrier(specification: "/tmp/d:base:base") == nil)
        #expect(DuetBarrier(specification: "/tmp/d:base") == nil)
        #expect(DuetBarrier(specification: ":base:head") == nil)
    }
}

/// `DuetTurns`: two sides (threads here, processes in a comparison) take turns strictly in
/// alternation, the base first; once one has finished, the other goes on alone without waiting.
@Suite struct DuetTurnsTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var order: [String] = []
        func append(_ name: String) { lock.lock(); order.append(name); lock.unlock() }
    }

    static func side(_ name: String, _ barrier: DuetBarrier, count: Int, log: Log) {
        guard let turns = DuetTurns(barrier, key: "g") else { return }
        for _ in 0..<count {
            turns.take()
            log.append(name)
            usleep(1_000)
            turns.pass()
        }
        turns.finish()
    }

    @Test func turnsAlternateAndTheLastGoesOnAlone() throws {
        let directory = try makeScratchDirectory("duet")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = DuetBarrier(directory: directory, selfName: "base", partnerName: "head")
        let head = DuetBarrier(directory: directory, selfName: "head", partnerName: "base")
        #expect(DuetTurns.prepare(base, key: "g") && DuetTurns.prepare(head, key: "g"))
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        // The head starts first in time, but the base holds the first turn.
        let thread = Thread { Self.side("h", head, count: 6, log: log); done.signal() }
        thread.start()
        usleep(20_000)
        let start = MonotonicClock.now()
        Self.side("b", base, count: 3, log: log)
        done.wait()
        #expect(log.order == ["b", "h", "b", "h", "b", "h", "h", "h", "h"], "\(log.order)")
        // The head's last turns did not wait for the finished base (its timeout is 10 s).
        #expect(Double(MonotonicClock.now() &- start) / 1e9 < 5)
    }
}
