import Foundation
import BenchResults
import BenchScenarios
import BenchWorkloads

/// What `layout-bench run` asks of a child process of itself (`layout-bench child`), as JSON on
/// the child's standard input. It carries the resolved scenarios (`PlanSelection`), so the child
/// reads no file and works from any directory and from a copy of the executable anywhere.
package enum ChildRequest: Codable, Sendable {
    /// One repetition of the whole run in a fresh process; the child writes a
    /// `BenchmarkRunner.Outcome` as JSON to standard output.
    case repetition(RepetitionRequest)
    /// One mode at one item count under callgrind: every operation in labelled regions
    /// (`CallgrindLabel`).
    case instructions(InstructionRequest)

    package func encoded() throws -> Data {
        try HarnessJSON.encoder().encode(self)
    }

    package static func decode(_ data: Data) throws -> ChildRequest {
        try JSONDecoder().decode(ChildRequest.self, from: data)
    }
}

/// One scenario of a run as the parent resolved it: the parsed scenario, its explicit items
/// included, and the modes and item counts selected. The child builds its `BenchmarkPlan` from
/// these values and never reads the scenario file or its data file: every repetition measures
/// exactly what the parent loaded, even if a file changes during the run.
package struct PlanSelection: Codable, Sendable, Hashable {
    package var scenario: Scenario
    /// The modes' names (the wire form of the workload's `Mode` values).
    package var modes: [String]
    package var items: [Int]

    package init(plan: BenchmarkPlan) {
        scenario = plan.scenario
        modes = plan.modeNames
        items = plan.itemCounts
    }

    /// The plan again, in the child: the workload's keys and the mode names are parsed from the
    /// values the parent already checked.
    package func plan() throws(ScenarioError) -> BenchmarkPlan {
        var plan = try BenchmarkPlan(scenario: scenario, modeFilter: modes)
        plan.itemCounts = items
        return plan
    }
}

package struct RepetitionRequest: Codable, Sendable {
    package var plans: [PlanSelection]
    package var policy: SamplingPolicy
    package var verify: Bool
    /// Only build and verify every mode: no warm-up, no samples, no counts (`run --verify-only`).
    package var verifyOnly = false
    package var repetition: Int
    /// The trace prefixes the first repetition timed (see `OperationCoverage`).
    package var coverage: [OperationCoverage] = []
    /// Where the child records what it is doing (`ChildProgressLog`); nil: nowhere.
    package var progressFile: String? = nil
    /// The duet this repetition samples in (`run --duet`, `DuetBarrier.specification`); nil: alone.
    package var duet: String? = nil
}

package struct InstructionRequest: Codable, Sendable {
    package var plan: PlanSelection
    package var mode: String
    package var items: Int
    /// Per operation, the prefix of its trace that time covered (absent: the whole trace).
    package var operations: [String: Int] = [:]
}

/// The label of one callgrind region: `count` operations of `operation` starting at `step` of
/// its trace, written as JSON in the dump's trigger line.
package struct CallgrindLabel: Codable, Hashable, Sendable {
    package var operation: String
    package var step: Int
    package var count: Int

    package init(operation: String, step: Int, count: Int) {
        self.operation = operation
        self.step = step
        self.count = count
    }

    package var text: String {
        (try? HarnessJSON.encoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The label of a dump, or nil for other dumps.
    package init?(text: String) {
        guard let label = try? JSONDecoder().decode(CallgrindLabel.self, from: Data(text.utf8)), label.count > 0 else { return nil }
        self = label
    }
}

/// What the child process does with a request.
package enum ChildProcessWork {
    /// Runs a request; returns what to write to standard output. With `output`, a repetition
    /// hands it each group's `GroupOutcome` as one JSON line as soon as the group ends (what the
    /// child process writes, so that a child that dies keeps what it finished) and returns nothing;
    /// without, it returns the whole `BenchmarkRunner.Outcome` as JSON.
    package static func run(
        _ request: ChildRequest, progress: @escaping (String) -> Void, output: ((Data) -> Void)? = nil
    ) throws -> Data {
        switch request {
        case .repetition(let repetition):
            let plans = try repetition.plans.map { try $0.plan() }
            var options = BenchmarkRunner.Options(
                policy: repetition.policy, verify: repetition.verify, verifyOnly: repetition.verifyOnly,
                repetition: repetition.repetition, coverage: repetition.coverage, progress: progress)
            options.progressLog = repetition.progressFile.flatMap(ChildProgressLog.init(path:))
            options.duet = repetition.duet.flatMap(DuetBarrier.init(specification:))
            if let output {
                let encoder = HarnessJSON.encoder()
                options.groupFinished = { group in
                    guard var line = try? encoder.encode(group) else { return }
                    line.append(UInt8(ascii: "\n"))
                    output(line)
                }
            }
            let outcome = BenchmarkRunner(plans: plans, options: options).run()
            return output == nil ? try HarnessJSON.encoder().encode(outcome) : Data()
        case .instructions(let instructions):
            let plan = try instructions.plan.plan()
            guard let mode = plan.modes.first(where: { $0.rawValue == instructions.mode }) else {
                throw ScenarioError(file: plan.scenario.file, path: "modes", message: "no mode \(instructions.mode)")
            }
            let group = try plan.workload.makeGroup(scenario: plan.scenario, items: instructions.items)
            let measured = try group.measure(mode: mode, verify: false)
            for (operation, work) in measured.operations {
                try OperationDriver(work).countInstructions(operations: instructions.operations[operation]) { step, count in
                    CallgrindLabel(operation: operation, step: step, count: count).text
                }
            }
            return Data()
        }
    }
}
