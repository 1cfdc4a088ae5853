import Foundation
import Testing
@testable import LayoutBenchKit

/// `DuetBarrier`: two processes (here threads) meet before sampling; one alone waits out its timeout.
@Suite struct DuetBarrierTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("duet-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theTwoSidesMeet() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = DuetBarrier(directory: directory, selfName: "base", partnerName: "head")
        let head = DuetBarrier(directory: directory, selfName: "head", partnerName: "base")
        let start = MonotonicClock.now()
        async let early = Task.detached { base.meet("list-query-1000", timeoutSeconds: 10) }.value
        // The head arrives 0.2 s later: the base waits for it, no longer.
        try await Task.sleep(nanoseconds: 200_000_000)
        let late = head.meet("list-query-1000", timeoutSeconds: 10)
        let met = await early
        let waited = Double(MonotonicClock.now() &- start) / 1e9
        #expect(met && late)
        #expect(waited >= 0.2 && waited < 5, "\(waited) s")
    }

    @Test func aSideAloneGivesUpAfterItsTimeout() throws {
        let directory = try Self.directory()
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
    }

    @Test func readsItsSpecification() {
        let barrier = DuetBarrier(specification: "/tmp/d:base:head")
        #expect(barrier?.directory == "/tmp/d" && barrier?.selfName == "base" && barrier?.partnerName == "head")
        #expect(DuetBarrier(specification: "/tmp/d:base:base") == nil)
        #expect(DuetBarrier(specification: "/tmp/d:base") == nil)
        #expect(DuetBarrier(specification: ":base:head") == nil)
    }
}
