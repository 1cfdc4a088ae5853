import Foundation
import Testing
import HarnessTestSupport
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads

/// Each mode states the bytes its own structures keep per item (`WorkloadMode.bytesPerItem`),
/// which `ScenarioFootprint` adds up to refuse a scenario too large for the machine. The
/// estimate must bound what the mode really keeps, measured with jemalloc's counters.
@Suite(.serialized) struct ModeFootprintTests {
    @Test func everyModeKeepsAtMostWhatItStates() throws {
        let counter = try #require(ThreadAllocationCounter())
        let scenarios = try ScenarioCatalog(directory: shippedScenariosDirectory()).loadAll()
        var rows: [String] = []
        var heaviest: [String: (perItem: Double, stated: Double)] = [:]
        var expectedRows = 0
        for workload in WorkloadCatalog.all {
            // A built-in kind's (`SectionedLayout`'s), so that a scenario of a kind with keys of its
            // own (`fixed-grid`) sorting first does not change what the built-in strategies are held to.
            let scenario = try #require(scenarios.first { $0.workload.kind == workload.kind && $0.data.isExplicit == false && !$0.isRegisteredLayout },
                                        "no generated scenario of \(workload.kind)")
            let plan = try BenchmarkPlan(scenario: scenario)
            let items = 20_000
            let group = try plan.workload.makeGroup(scenario: scenario, items: items)
            // The shipped modes only: other suites register test kinds in the process-wide
            // catalog while this runs (some broken on purpose), so take one snapshot of the rest.
            // The built-in list's offsets strategies (`list-fenwick`) keep list sections only: they
            // run where every section of the scenario is a list.
            let modes = workload.allModes.filter { ($0 as? LayoutStrategyMode)?.kind?.builtInSchema ?? true }
                .filter { LayoutCatalog.offsetsMode(ofStrategy: $0.rawValue) == nil || scenario.layout.styles.allSatisfy { if case .list = $0.kind { true } else { false } } }
            expectedRows += modes.count
            for mode in modes {
                let before = Int64(counter.allocatedBytes()) - Int64(counter.deallocatedBytes())
                let measured = try group.measure(mode: mode, verify: false)
                // One operation of each kind, so that what an operation builds (a prepared layout) counts.
                for (_, work) in measured.operations {
                    switch work {
                    case .batchable(let operation): _ = try operation.run(count: 1)
                    case .consuming(let operation):
                        try operation.prepareNext()
                        _ = try operation.runNext()
                    }
                }
                let after = Int64(counter.allocatedBytes()) - Int64(counter.deallocatedBytes())
                withExtendedLifetime(measured) {}
                let perItem = Double(after - before) / Double(items)
                let row = "\(workload.kind) \(mode.rawValue): keeps \(String(format: "%.1f", perItem)) B/item, states \(mode.bytesPerItem)"
                rows.append(row)
                // A bound that holds, and one that is not so loose that it stopped describing the mode.
                #expect(perItem <= mode.bytesPerItem, "\(row): the bound is too low")
                if mode is LayoutStrategyMode {
                    // A layout strategy states one bound for every generic workload, so it must not
                    // be stale where the mode keeps most (layout-edit: a layout per operation).
                    if perItem > heaviest[mode.rawValue]?.perItem ?? -1 { heaviest[mode.rawValue] = (perItem, mode.bytesPerItem) }
                } else {
                    #expect(mode.bytesPerItem <= 3 * perItem + 64, "\(row): the bound is stale, far above what the mode keeps")
                }
            }
        }
        for (mode, (perItem, stated)) in heaviest.sorted(by: { $0.key < $1.key }) {
            #expect(stated <= 3 * perItem + 64, "\(mode): states \(stated) B/item, keeps at most \(perItem) under any generic workload: the bound is stale")
        }
        #expect(!heaviest.isEmpty)
        #expect(rows.count == expectedRows)
    }
}
