import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// One step of the self-sizing trace per timed operation; a fresh session (a layout of the
/// estimated data, built and prepared outside the timing) starts each pass of the trace.
final class LayoutSelfSizingOperation: ConsumingOperation {
    private let make: () throws -> SelfSizingSession
    private let trace: SelfSizingTrace
    private var session: SelfSizingSession?
    private var step = 0

    init(make: @escaping () throws -> SelfSizingSession, trace: SelfSizingTrace) {
        self.make = make
        self.trace = trace
    }

    var traceLength: Int { trace.moves.count }

    func rewind() { session = nil }

    func prepareNext() throws {
        if session == nil || step == trace.moves.count {
            session = nil
            session = try make()
            step = 0
        }
    }

    func runNext() throws -> Int {
        guard let session, step < trace.moves.count else { throw OperationMisuse.notPrepared }
        _ = try session.run(trace.moves[step], step: step, observe: false)
        step += 1
        return Int(truncatingIfNeeded: session.offset.bitPattern)
    }
}
