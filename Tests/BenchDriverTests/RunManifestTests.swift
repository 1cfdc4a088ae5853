import Foundation
import Testing
@testable import BenchResults
@testable import BenchDriver

/// The drivers' own JSON files as typed records (`RunManifest`, `CarriedJSON`, `Shards.Record`):
/// what a merge does not know is carried through as it was, types stay apart, and what they
/// write reads back as the record `compare` reads.
@Suite struct RunManifestTests {
    static let child = """
        {"run_id": "r1", "start_time": "2026-11-26T10:00:00Z", "end_time": "2026-11-26T10:01:00Z", "schema": 2,
         "a_field_of_another_commit": {"nested": [1, 2.5, true, null, "x"], "Mixed_Case": "kept"},
         "machine": {"cpu_model": "synthetic", "memory_bytes": 8589934592},
         "load": {"start": [0.5, 0.5, 0.5], "end": [0.6, 0.6, 0.6], "unknown_load": 7},
         "scenario_loads": [{"scenario": "s", "file": "s.json", "seconds": 0.25}]}
        """

    static func decoded(_ text: String) throws -> RunManifest {
        try JSONDecoder().decode(RunManifest.self, from: Data(text.utf8))
    }

    @Test func whatAMergeDoesNotKnowIsCarriedThrough() throws {
        let manifest = try Self.decoded(Self.child)
        #expect(manifest.runID == "r1" && manifest.load?.start == [0.5, 0.5, 0.5])
        #expect(manifest.others["a_field_of_another_commit"] == ["nested": [1, 2.5, true, .null, "x"], "Mixed_Case": "kept"])
        #expect(manifest.load?.others["unknown_load"] == 7)
        let text = try JSONFile.text(manifest)
        #expect(try Self.decoded(text) == manifest)
        // Written as written: no key renamed, integers stay integers.
        #expect(text.contains("\"Mixed_Case\" : \"kept\"") && text.contains("\"memory_bytes\" : 8589934592") && text.contains("\"schema\" : 2,"))
    }

    @Test func typesStayApart() throws {
        let tree = try JSONDecoder().decode(CarriedJSON.self, from: Data(#"{"a": true, "b": 1, "c": 1.5, "d": "1", "e": null}"#.utf8))
        #expect(tree["a"] == .bool(true) && tree["a"]?.integerValue == nil)
        #expect(tree["b"] == .integer(1) && tree["b"]?.integerValue == 1)
        #expect(tree["c"] == .number(1.5) && tree["c"]?.integerValue == nil)
        #expect(tree["d"]?.integerValue == nil && tree["d"]?.stringValue == "1")
        #expect(tree["e"] == .null)
        #expect(CarriedJSON.array(["a", 2, .null, true]).shown == "['a', 2, None, True]")
    }

    /// What a driver adds to `load` reads back in `compare`'s record of the run.
    @Test func theDriversLoadReadsBackAsTheRecord() throws {
        var manifest = try Self.decoded(Self.child)
        let before = RunMetadata.MachineLoad(average: [3.5, 2, 1], running: 3, busiest: ["cc1 97% cpu"], othersCores: 0.55)
        let merged = RoundMerge.spanning([manifest], repetitions: 1, load: RoundMerge.Load(before: before, ownProcesses: 2))
        let text = try JSONFile.text(merged)
        #expect(text.contains("\"others_cores\" : 0.55") && text.contains("\"own_processes\" : 2"), "\(text)")
        manifest = try Self.decoded(text)
        #expect(manifest.load?.before == before && manifest.load?.others["unknown_load"] == 7)
    }

    @Test func roundsSpanTheirTimesAndListItemsOnce() throws {
        var second = try Self.decoded(Self.child)
        second.startTime = "2026-11-26T09:00:00Z"
        second.endTime = "2026-11-26T11:00:00Z"
        second.load?.start = [0.1, 0.1, 0.1]
        second.scenarioLoads = [["scenario": "s", "file": "s.json", "seconds": 0.25], ["scenario": "t", "file": "t.json", "seconds": 1]]
        let merged = RoundMerge.spanning([try Self.decoded(Self.child), second], repetitions: 4, load: RoundMerge.Load())
        #expect(merged.startTime == "2026-11-26T09:00:00Z" && merged.endTime == "2026-11-26T11:00:00Z")
        #expect(merged.load == RunManifest.Load(start: [0.1, 0.1, 0.1], end: [0.6, 0.6, 0.6]))
        #expect(merged.scenarioLoads?.count == 2 && merged.mergedRuns == 2 && merged.repetitions == 4)
        #expect(merged.coverage == nil)
    }

    @Test func aShareRecordReadsBack() throws {
        let record = Shards.Record(base: "a", head: "b", shard: 1, shards: 2, options: ["--quick"], scenarios: [],
                                   compareArguments: ["--metric", "time"], share: ["g"], measured: "5 rounds")
        let text = try JSONFile.text(record)
        #expect(text.contains("\"compare_args\" : [") && text.contains("\"schema\" : 1"))
        #expect(try JSONDecoder().decode(Shards.Record.self, from: Data(text.utf8)) == record)
    }

    @Test func aHarnessListingIsReadPastWhatPrecedesIt() {
        let output = "a warning line\n{\"scenarios\": [{\"name\": \"s\", \"items\": [10, 1000]}, {\"items\": [1]}, {\"name\": \"t\"}], \"other\": 1}"
        let entries = HarnessListing.entries(output)
        #expect(entries?.map(\.name) == ["s", "t"])
        #expect(entries?.map(\.items) == [[10, 1000], []])
        #expect(HarnessListing.entries("no listing") == nil)
    }
}
