import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchScenarios
@testable import BenchWorkloads

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
                if let metric = mode.accuracyMetric { #expect(WorkloadCatalog.metrics.contains { $0.name == metric }, "\(mode.name): \(metric)") }
            }
        }
        let update = try #require(listing.workloads.first { $0.kind == "append" })
        #expect(update.modes.first { $0.name == "full" }?.reproduces.contains("CHTCollectionViewWaterfallLayout") == true)
        let query = try #require(listing.workloads.first { $0.kind == "query" })
        #expect(query.modes.filter { !$0.exact }.map(\.name) == ["binary-probe", "masonry-range"])
    }

    /// The keys `list --json` prints for a workload are exactly the keys its `init(spec:)` reads,
    /// and every operation says what one sample times.
    @Test func everyWorkloadListsTheKeysItReadsAndWhatItsOperationsTime() throws {
        func keysRead<W: Workload>(_ workload: W.Type) throws -> [String] {
            let spec = JSONReader(members: [], file: "s.json", path: "workload")
            spec.allow("kind")
            _ = try W(spec: spec)
            return spec.knownKeys.filter { $0 != "kind" }
        }
        let listing = try Self.listing()
        for (type, entry) in zip(WorkloadCatalog.all, listing.workloads) {
            #expect(try Set(keysRead(type)) == Set(entry.keys.map(\.name)), "\(entry.kind)")
            #expect(Set(entry.keys.map(\.name)).count == entry.keys.count, "\(entry.kind): a key twice")
            for key in entry.keys {
                #expect(!key.about.isEmpty && !key.default.isEmpty && !key.bounds.isEmpty, "\(entry.kind).\(key.name)")
            }
            #expect(entry.timing.map(\.operation) == entry.operations, "\(entry.kind)")
            for timing in entry.timing {
                #expect(!timing.timed.isEmpty && !timing.untimed.isEmpty, "\(entry.kind) \(timing.operation)")
            }
        }
        let query = try #require(listing.workloads.first { $0.kind == "query" })
        #expect(query.keys == [.init(name: "frames", type: "integer", default: "600", bounds: "an integer from 1 to 1000000",
                                     about: query.keys.first?.about ?? "")])
        let measure = try #require(listing.workloads.first { $0.kind == "cell-measure" })
        #expect(measure.keys.map(\.name) == ["widths", "rotateEvery", "verifyMeasurements", "operations"])
    }

    @Test func everyScenarioRunsModesOfItsWorkload() throws {
        let listing = try Self.listing()
        #expect(listing.scenarios.count >= 20)
        for scenario in listing.scenarios {
            let workload = try #require(listing.workloads.first { $0.kind == scenario.workload })
            #expect(Set(scenario.modes).isSubset(of: workload.modes.map(\.name)), "\(scenario.name)")
        }
        #expect(listing.metrics.map(\.name) == WorkloadCatalog.metrics.map(\.name))
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
