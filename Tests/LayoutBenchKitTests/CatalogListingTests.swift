import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads
@testable import BenchRunner
@testable import BenchCompare

/// `layout-bench list --json`: every workload's mode table is complete, and the listing is stable.
@Suite struct CatalogListingTests {
    static func listing() throws -> CatalogListing {
        let catalog = try ScenarioCatalog.locate()
        let plans = try catalog.loadAll().map { scenario throws(ScenarioError) in try BenchmarkPlan(scenario: scenario) }
        return CatalogListing(plans: plans)
    }

    @Test func everyModeDescribesItself() throws {
        let listing = try Self.listing()
        #expect(listing.workloads.map(\.kind) == WorkloadCatalog.all.map { $0.kind })
        for workload in listing.workloads {
            #expect(!workload.about.isEmpty && !workload.operations.isEmpty, "\(workload.kind)")
            #expect(Set(workload.modes.map(\.name)).count == workload.modes.count, "\(workload.kind): a mode name twice")
            for mode in workload.modes {
                #expect(!mode.about.isEmpty && !mode.reproduces.isEmpty, "\(workload.kind) \(mode.name)")
                // Its footprint is stated (ModeFootprintTests holds every mode of every workload to it,
                // building each through its factory).
                #expect(mode.bytesPerItem > 0, "\(workload.kind) \(mode.name)")
                // A heuristic names the metric that reports it, and that metric exists.
                #expect(mode.exact == (mode.accuracyMetric == nil), "\(mode.name)")
                if let metric = mode.accuracyMetric { #expect(Metric(rawValue: metric) != nil, "\(mode.name): \(metric)") }
            }
        }
        let update = try #require(listing.workloads.first { $0.kind == "append" })
        #expect(update.modes.first { $0.name == "full" }?.reproduces.contains("CHTCollectionViewWaterfallLayout") == true)
        let query = try #require(listing.workloads.first { $0.kind == "query" })
        #expect(query.modes.filter { !$0.exact }.map(\.name) == ["binary-probe", "masonry-range"])
    }

    @Test func everyScenarioRunsModesOfItsWorkload() throws {
        let listing = try Self.listing()
        #expect(listing.scenarios.count >= 20)
        for scenario in listing.scenarios {
            let workload = try #require(listing.workloads.first { $0.kind == scenario.workload })
            #expect(Set(scenario.modes).isSubset(of: workload.modes.map(\.name)), "\(scenario.name)")
        }
        #expect(listing.metrics.map(\.name) == Metric.allCases.map(\.rawValue))
    }

    @Test func theJSONIsStableAndHasNullForExactModes() throws {
        let listing = try Self.listing()
        let json = try listing.json()
        #expect(try listing.json() == json)
        #expect(json.contains(#""accuracyMetric" : null"#))
        let decoded = try JSONDecoder().decode(CatalogListing.self, from: Data(json.utf8))
        #expect(decoded == listing)
    }
}
