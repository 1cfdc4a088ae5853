import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare
@testable import BenchDriver
import BenchStatistics
@testable import LayoutTestSupport

/// The drivers of `compare-commits` and `history` (BenchDriver): the decisions of the rounds,
/// merging rounds, shards and their refusals, and a whole comparison driven over fake harnesses.
@Suite(.serialized) struct DriverTests {
    static let header = "schema,run_id,commit,scenario,workload,mode,items,operation,repetition,sample,metric,unit,value\n"

    /// A results directory of one process: `levels` per scenario (time around it, seeded noise),
    /// one repetition, with a run.json.
    static func writeRun(_ directory: String, runID: String, levels: [(scenario: String, time: Double)], seed: UInt64,
                         repetition: Int = 1, start: String = "2026-11-26T10:00:00Z", cpu: String = "synthetic") throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var random = SeededRandom(seed: seed)
        var text = header
        for (scenario, time) in levels {
            let speed = 1 + 0.01 * (2 * random.unit() - 1)
            for mode in ["linear", "binary"] {
                for sample in 1...20 {
                    let value = time * speed * (1 + 0.005 * (2 * random.unit() - 1))
                    text += "2,\(runID),abc1234,\(scenario),query,\(mode),1000,query,\(repetition),\(sample),time,ns,\(value)\n"
                }
            }
            text += "2,\(runID),abc1234,\(scenario),query,,1000,,\(repetition),1,peak_rss,bytes,\(Int(30e6 * speed))\n"
        }
        try Data(try Gzip.compress(Array(text.utf8))).write(to: URL(fileURLWithPath: directory + "/samples.csv.gz"))
        let run = """
            {"run_id": "\(runID)", "start_time": "\(start)", "end_time": "\(start)", "machine": {"cpu_model": "\(cpu)", "active_cores": 2},
             "os": {"pretty_name": "Debian"}, "toolchain": {"configuration": "release"}, "source": {"commit": "abc1234"},
             "load": {"start": [0.5, 0.5, 0.5], "end": [0.6, 0.6, 0.6]}}
            """
        try run.write(toFile: directory + "/run.json", atomically: true, encoding: .utf8)
    }

    static func rows(_ path: String) throws -> [[String]] {
        let text = String(decoding: try ResultsFile.contents(of: path), as: UTF8.self)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    // MARK: Round order, budget, undecided groups

    @Test func theWholeSuiteRunsOnlyTheScenariosBothCommitsHave() {
        let base: [(name: String, items: [Int])] = [("a", [1]), ("gone", [1]), ("b", [2])]
        let head: [(name: String, items: [Int])] = [("new", [1]), ("b", [2]), ("a", [1])]
        let common = HarnessListing.common(base: base, head: head)
        #expect(common.names == ["b", "a"])
        #expect(common.leftOut == ["new", "gone"])
        // A listing that failed leaves nothing out (the run then says what it cannot run).
        #expect(HarnessListing.common(base: nil, head: head).leftOut.isEmpty)
        #expect(HarnessListing.common(base: head, head: head).leftOut.isEmpty)
    }

    @Test func roundsAlternateWhichSideStarts() {
        // Group 1 of round 1 starts with the head (as the bash's (index + round) % 2 == 0 did), then
        // every group and every round flips it.
        #expect(RoundSchedule.baseFirst(round: 1, index: 1) == false)
        #expect(RoundSchedule.baseFirst(round: 1, index: 2) == true)
        #expect(RoundSchedule.baseFirst(round: 2, index: 1) == true)
        // The binaries' copies: the base's first in round 1, then each round the other side's.
        #expect(RoundSchedule.baseCopiedFirst(round: 1))
        #expect((1...8).filter { RoundSchedule.baseCopiedFirst(round: $0) }.count == 4)
        // history copies its commits in the same alternation: oldest first in odd rounds.
        #expect(RoundSchedule.copyOrder(["base", "head"], round: 1) == ["base", "head"])
        #expect(RoundSchedule.copyOrder([3, 4, 5], round: 1) == [3, 4, 5])
        #expect(RoundSchedule.copyOrder([3, 4, 5], round: 2) == [5, 4, 3])
        #expect((1...6).allSatisfy { RoundSchedule.copyOrder([1, 2], round: $0).first == (RoundSchedule.baseCopiedFirst(round: $0) ? 1 : 2) })
        for round in 1...6 {
            #expect(RoundSchedule.baseCopiedFirst(round: round) != RoundSchedule.baseCopiedFirst(round: round + 1))
            for index in 1...6 {
                #expect(RoundSchedule.baseFirst(round: round, index: index) != RoundSchedule.baseFirst(round: round + 1, index: index))
                let names = RoundSchedule.duetNames(round: round, index: index)
                // The side whose duet name sorts first takes the first turn: the one that starts.
                #expect((names.base < names.head) == RoundSchedule.baseFirst(round: round, index: index))
            }
        }
        // Over rounds 1…10 each side starts every group five times.
        #expect((1...10).filter { RoundSchedule.baseFirst(round: $0, index: 3) }.count == 5)
    }

    @Test func theNextRoundTakesTheCheapestGroupsThatFitTheBudget() {
        let g = (1...5).map { ScenarioGroup(scenario: "s\($0)", items: 1000) }
        let seconds: [ScenarioGroup: Double] = [g[0]: 100, g[1]: 5, g[2]: 10, g[3]: 3, g[4]: 40]
        // No budget: all of them, in their order.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: nil, lanes: 2) == g)
        // 30 s on two lanes: 3 + 5 + 10 = 18 s, 9 s a lane; adding 40 s would make the longest
        // group 40 s. The order stays the groups' own.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 30, lanes: 2) == [g[1], g[2], g[3]])
        // 45 s: the 40 s group fits beside them (58 s on two lanes, 29 s a lane; longest 40 s).
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 45, lanes: 2) == [g[1], g[2], g[3], g[4]])
        // On one lane, 45 s holds 3 + 5 + 10 only.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 45, lanes: 1) == [g[1], g[2], g[3]])
        // Nothing fits: nothing runs.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 2, lanes: 2).isEmpty)
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: -60, lanes: 2).isEmpty)
        // A group never timed counts as the dearest.
        let unknown = ScenarioGroup(scenario: "new", items: 1)
        #expect(RoundSchedule.nextRound([unknown] + g, seconds: seconds, remainingSeconds: 60, lanes: 2) == [g[1], g[2], g[3], g[4]])
        // A group with a noisy row (the 40 s one) goes first: on one lane 40 + 3 fit 45 s, where
        // cheapest first took 3 + 5 + 10. Where it does not fit, the others go as before.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 45, lanes: 1, undecided: [g[4]]) == [g[3], g[4]])
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 30, lanes: 2, undecided: [g[4]]) == [g[1], g[2], g[3]])
        // One that does not fit is passed over for cheaper ones: 100 s never fits 45 s.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 45, lanes: 2, undecided: [g[0], g[2]])
                == [g[1], g[2], g[3], g[4]])
        // A group whose row looks changed at too few pairs runs whatever the budget: the 100 s one
        // with no time left, and, with 45 s on one lane, beside what still fits after it (none).
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: -60, lanes: 2, confirming: [g[0]]) == [g[0]])
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 45, lanes: 1, confirming: [g[0]]) == [g[0]])
        // 20 s left on two lanes beside the 10 s one: 10 + 3 + 5 = 18 s, 9 s a lane.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: 20, lanes: 2, confirming: [g[2]]) == [g[1], g[2], g[3]])
        // Without a budget, all of them, as before.
        #expect(RoundSchedule.nextRound(g, seconds: seconds, remainingSeconds: nil, lanes: 2, confirming: [g[0]]) == g)
    }

    @Test func aSuiteThatOutgrewTheBudgetIsToldAfterRoundOne() {
        // The A/A of ec54709: verification 7 min 51 s, round 1 7 min 57 s, 5 rounds: past 20 min.
        #expect(RoundSchedule.mandatoryRoundsOverrun(budgetMinutes: 20, elapsedSeconds: 948, roundSeconds: 477, rounds: 5) == 48)
        // Within it: nothing to say.
        #expect(RoundSchedule.mandatoryRoundsOverrun(budgetMinutes: 20, elapsedSeconds: 300, roundSeconds: 200, rounds: 5) == nil)
        // No budget, or one round only: nothing to say either.
        #expect(RoundSchedule.mandatoryRoundsOverrun(budgetMinutes: 0, elapsedSeconds: 948, roundSeconds: 477, rounds: 5) == nil)
        #expect(RoundSchedule.mandatoryRoundsOverrun(budgetMinutes: 20, elapsedSeconds: 1_500, roundSeconds: 477, rounds: 1) == nil)
    }

    @Test func extraRoundsGoToTheUnsettledGroupsOnly() {
        let groups = [ScenarioGroup(scenario: "a", items: 1000), ScenarioGroup(scenario: "a", items: 100_000),
                      ScenarioGroup(scenario: "b", items: 1000), ScenarioGroup(scenario: "c", items: nil),
                      ScenarioGroup(scenario: "e", items: 1000), ScenarioGroup(scenario: "f", items: 1000)]
        typealias Row = RoundSchedule.JudgedRow
        let rows = [
            Row(scenario: "a", items: 1000, verdict: "unchanged"), Row(scenario: "a", items: 100_000, verdict: "noisy"),
            Row(scenario: "b", items: 1000, verdict: "regressed", widened: true), Row(scenario: "c", items: 2000, verdict: "noisy"),
            Row(scenario: "d", items: 1000, verdict: "noisy"), Row(scenario: "e", items: 1000, verdict: "unchanged", widened: true),
            Row(scenario: "f", items: 1000, verdict: "improved"),
        ]
        // a at 100k has a noisy row; c, a group without a count, stands for every count of c; e
        // is unchanged at a widened θ, which more processes narrow; b and f are decided (a change
        // is a verdict, widened or not); d is not a group of this comparison.
        #expect(RoundSchedule.unsettled(groups, rows: rows) == [groups[1], groups[3], groups[4]])
        #expect(RoundSchedule.unsettled(groups, rows: rows.filter { $0.verdict != "noisy" && !$0.widened }).isEmpty)
        // Of them, a at 100k and c have a row still noisy: the comparison's verdict waits on them.
        #expect(RoundSchedule.undecided(groups, rows: rows) == [groups[1], groups[3]])
        // Of those, a row that looks changed at too few pairs: its group is measured past the budget.
        var awaiting = rows
        awaiting[1].awaitsRepetitions = true
        #expect(RoundSchedule.confirming(groups, rows: awaiting) == [groups[1]])
        #expect(RoundSchedule.confirming(groups, rows: rows).isEmpty)
        // A row still noisy at fewer pairs than a change needs: its group too, until it has them.
        var counted = rows
        counted[1].pairs = 5
        counted[3].pairs = 8
        counted[4].pairs = 5  // unchanged at a widened θ: decided, more pairs only narrow it
        #expect(RoundSchedule.confirming(groups, rows: counted, pairsForNoisy: 8) == [groups[1]])
        #expect(RoundSchedule.confirming(groups, rows: counted, pairsForNoisy: 5).isEmpty)
        #expect(RoundSchedule.confirming(groups, rows: counted).isEmpty)
        // compare-commits gives a row still noisy twice the pairs a change needs.
        #expect(RoundSchedule.confirming(groups, rows: counted, pairsForNoisy: 16) == [groups[1], groups[3]])
        counted[3].pairs = 16
        #expect(RoundSchedule.confirming(groups, rows: counted, pairsForNoisy: 16) == [groups[1]])
        #expect(CompareCommitsArguments().pairsForNoisy == 16)
    }

    @Test func groupsFollowTheListing() {
        let listing: [(name: String, items: [Int])] = [("a", [1000, 30000]), ("b", [2000])]
        #expect(RoundSchedule.groups(listing: listing, chosen: [], expand: true).map(\.description) == ["a 1000", "a 30000", "b 2000"])
        #expect(RoundSchedule.groups(listing: listing, chosen: ["b", "x.json"], expand: true).map(\.description) == ["b 2000", "x.json "])
        #expect(RoundSchedule.groups(listing: listing, chosen: [], expand: false).map(\.description) == ["a ", "b "])
        #expect(ScenarioGroup("a 1000") == ScenarioGroup(scenario: "a", items: 1000))
        #expect(ScenarioGroup("a ") == ScenarioGroup(scenario: "a", items: nil))
    }

    @Test func historyPairsNeighboursAlternately() {
        #expect(History.pairs(count: 5, round: 1) == [[0, 1], [2, 3], [4]])
        #expect(History.pairs(count: 5, round: 2) == [[0], [1, 2], [3, 4]])
        #expect(History.pairs(count: 1, round: 2) == [[0]])
        // Every neighbouring step shares a duet within two rounds.
        let steps = Set((1...2).flatMap { History.pairs(count: 6, round: $0) }.filter { $0.count == 2 }.map { $0[0] })
        #expect(steps == Set(0..<5))
    }

    // MARK: Merging rounds

    @Test func groupedRoundsTakeTheRoundsPositionAsRepetition() throws {
        let root = try makeScratchDirectory("merge")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for round in 1...3 {
            for group in 1...2 {
                try Self.writeRun("\(root)/round-\(round)/g-\(group)", runID: "r\(round)g\(group)", levels: [("s\(group)", 100)],
                                  seed: UInt64(round * 10 + group), start: "2026-11-26T10:0\(round):0\(group)Z")
            }
        }
        try RoundMerge.merge(rounds: (1...3).map { "\(root)/round-\($0)" }, into: "\(root)/side",
                             load: RoundMerge.Load(before: RunMetadata.MachineLoad(average: [3.5, 2.0, 1.0], running: 3, busiest: ["cc1 97% cpu"]), ownProcesses: 2))
        let rows = try Self.rows("\(root)/side/samples.csv.gz")
        #expect(rows.count == 3 * 2 * 41)
        #expect(Set(rows.map { $0[8] }) == ["1", "2", "3"])
        // Round 2's rows carry repetition 2 whatever their group.
        #expect(rows.filter { $0[1].hasPrefix("r2") }.allSatisfy { $0[8] == "2" })
        let run = try JSONFile.read(RunManifest.self, "\(root)/side/run.json")
        #expect(run.mergedRuns == 6)
        #expect(run.repetitions == 3)
        #expect(run.startTime == "2026-11-26T10:01:01Z")
        #expect(run.endTime == "2026-11-26T10:03:02Z")
        #expect(run.load?.ownProcesses == 2)
        #expect(run.load?.before?.busiest == ["cc1 97% cpu"])
    }

    @Test func plainRunsAreNumberedOnAcrossRounds() throws {
        let root = try makeScratchDirectory("merge")
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Two runs of two repetitions each (numbered 1, 2 inside each run): 1…4 merged.
        for round in 1...2 {
            try Self.writeRun("\(root)/round-\(round)", runID: "run\(round)", levels: [("s", 100)], seed: UInt64(round))
            var text = String(decoding: try ResultsFile.contents(of: "\(root)/round-\(round)/samples.csv.gz"), as: UTF8.self)
            text += text.split(separator: "\n").dropFirst().map { $0.replacingOccurrences(of: ",query,1,", with: ",query,2,") }.joined(separator: "\n") + "\n"
            try Data(try Gzip.compress(Array(text.utf8))).write(to: URL(fileURLWithPath: "\(root)/round-\(round)/samples.csv.gz"))
        }
        try RoundMerge.merge(rounds: ["\(root)/round-1", "\(root)/round-2"], into: "\(root)/side")
        let rows = try Self.rows("\(root)/side/samples.csv.gz")
        let numbers = Dictionary(grouping: rows.filter { $0[10] == "time" }, by: { "\($0[1]) \($0[8])" }).keys.sorted()
        #expect(numbers == ["run1 1", "run1 2", "run2 3", "run2 4"])
    }

    /// A round of another schema (another header) stops the merge before anything is written, and
    /// a side merged earlier stays as it was: no partial merged side.
    @Test func aFailedMergeLeavesTheEarlierSideIntact() throws {
        let root = try makeScratchDirectory("merge")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.writeRun("\(root)/round-1/g-1", runID: "a", levels: [("s", 100)], seed: 1)
        try Self.writeRun("\(root)/round-2/g-1", runID: "b", levels: [("s", 100)], seed: 2)
        try RoundMerge.merge(rounds: ["\(root)/round-1"], into: "\(root)/side")
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(root)/side/samples.csv.gz"))
        let other = "schema,run_id,commit,scenario,workload,mode,items,operation,repetition,sample,metric,unit,value,extra\n"
        try Data(try Gzip.compress(Array(other.utf8))).write(to: URL(fileURLWithPath: "\(root)/round-2/g-1/samples.csv.gz"))
        #expect(throws: DriverError.self) { try RoundMerge.merge(rounds: ["\(root)/round-1", "\(root)/round-2"], into: "\(root)/side") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(root)/side/samples.csv.gz")) == before)
        #expect(Paths.entries("\(root)/side").sorted() == ["failures.csv", "run.json", "samples.csv.gz"])
    }

    // MARK: Shards

    @Test func sharesAreDealtInTurnAndCoverEveryGroupOnce() {
        let groups = (1...11).map { "g\($0)" }
        for count in 1...5 {
            let shares = (1...count).map { Shards.share(groups, index: $0, count: count) }
            #expect(shares.flatMap { $0 }.sorted() == groups.sorted())
            #expect(Set(shares.flatMap { $0 }).count == groups.count)
            #expect(shares.map(\.count).max()! - shares.map(\.count).min()! <= 1)
            // The same list always deals the same way.
            #expect(shares == (1...count).map { Shards.share(groups, index: $0, count: count) })
        }
        #expect(Shards.share(groups, index: 2, count: 4) == ["g2", "g6", "g10"])
        #expect(Shards.parse("2/4")?.index == 2 && Shards.parse("2/4")?.count == 4)
        for bad in ["0/4", "5/4", "1/0", "a/2", "1/2/3", "01/2", "", "1/", "1234567/1234567"] {
            #expect(Shards.parse(bad) == nil, "\(bad)")
        }
    }

    /// Synthetic timed rounds of 4 groups (head's s3 15% slower), 5 rounds a side; the shares as
    /// --shard deals them, each merged on its own; returns the root.
    static func writeShares(count: Int) throws -> String {
        let root = try makeScratchDirectory("shards")
        var seed: UInt64 = 1
        for side in ["base", "head"] {
            for round in 1...5 {
                for group in 1...4 {
                    seed += 1
                    try writeRun("\(root)/rounds/\(side)/round-\(round)/g-\(group)", runID: "\(side)\(round)\(group)",
                                 levels: [("s\(group)", 100.0 * Double(group) * (side == "head" && group == 3 ? 1.15 : 1))], seed: seed,
                                 start: "2026-11-26T10:0\(round):0\(group)Z")
                }
            }
            try RoundMerge.merge(rounds: (1...5).map { "\(root)/rounds/\(side)/round-\($0)" }, into: "\(root)/whole/\(side)")
        }
        let groups = (1...4).map { "s\($0) 1000" }
        for shard in 1...count {
            let share = Shards.share(groups, index: shard, count: count)
            for side in ["base", "head"] {
                for round in 1...5 {
                    for (offset, group) in groups.enumerated() where share.contains(group) {
                        let from = "\(root)/rounds/\(side)/round-\(round)/g-\(offset + 1)"
                        let to = "\(root)/part-\(shard)/\(side)/round-\(round)/g-\(offset + 1)"
                        try FileManager.default.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                        try FileManager.default.copyItem(atPath: from, toPath: to)
                    }
                }
                try RoundMerge.merge(rounds: (1...5).map { "\(root)/part-\(shard)/\(side)/round-\($0)" }, into: "\(root)/share-\(shard)/\(side)")
            }
            try Shards.Record(base: String(repeating: "a", count: 40), head: String(repeating: "b", count: 40), shard: shard, shards: count,
                              options: ["--quick"], scenarios: [], compareArguments: ["--metric", "time", "--metric", "peak_rss"],
                              share: share, measured: "5 rounds").write(to: "\(root)/share-\(shard)/shard.json")
        }
        return root
    }

    static func merge(_ shares: [String], out: String) -> (status: Int32?, error: DriverError?) {
        var arguments = CompareCommitsArguments()
        arguments.merge = true
        arguments.plot = false
        arguments.mergeOut = out
        arguments.positional = shares
        do { return (try CompareCommits(arguments: arguments).run(), nil) } catch { return (nil, error) }
    }

    @Test func theMergeOfTheSharesGivesTheUnshardedVerdicts() throws {
        for count in [2, 3] {
            let root = try Self.writeShares(count: count)
            defer { try? FileManager.default.removeItem(atPath: root) }
            let whole = try Judge.run(base: "\(root)/whole/base", head: "\(root)/whole/head", csv: "\(root)/whole.csv",
                                      arguments: ["--metric", "time", "--metric", "peak_rss"])
            #expect(whole.status == 2)
            // Given in any order.
            let merged = Self.merge((1...count).reversed().map { "\(root)/share-\($0)" }, out: "\(root)/merged")
            #expect(merged.status == 2)
            #expect(try String(contentsOfFile: "\(root)/merged/compare.csv", encoding: .utf8) == String(contentsOfFile: "\(root)/whole.csv", encoding: .utf8))
            let regressed = whole.report.rows.filter { $0.verdict == .regressed }.map { "\($0.key.scenario) \($0.key.mode)" }
            #expect(Set(regressed) == ["s3 linear", "s3 binary"])
            let text = try String(contentsOfFile: "\(root)/merged/compare.txt", encoding: .utf8)
            #expect(text.contains("merged from \(count) shares:"))
            #expect(!text.contains(".tmp-"))
        }
    }

    @Test func theMergeRefusesSharesThatDoNotMakeOneComparison() throws {
        let root = try Self.writeShares(count: 2)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = "\(root)/bad"
        func refusal(_ shares: [String]) -> String {
            let result = Self.merge(shares, out: out)
            #expect(result.status == nil)
            return result.error?.message ?? "(no error)"
        }
        func copy(_ name: String, edit: (inout CarriedJSON) -> Void, file: String = "shard.json") throws -> String {
            let path = "\(root)/\(name)"
            try FileManager.default.copyItem(atPath: "\(root)/share-2", toPath: path)
            var object = try JSONFile.read(CarriedJSON.self, "\(path)/\(file)")
            edit(&object)
            try JSONFile.write(object, to: "\(path)/\(file)")
            return path
        }
        #expect(refusal(["\(root)/share-1"]) == "share 2 of 2 missing (given: \(root)/share-1/shard.json)")
        #expect(refusal(["\(root)/share-1", "\(root)/share-1"]).hasPrefix("\(root)/share-1/shard.json: share 1 of 2 given twice"))
        let other = try copy("other") { $0["head"] = .string(String(repeating: "c", count: 40)) }
        #expect(refusal(["\(root)/share-1", other]).hasPrefix("\(other)/shard.json: head commit 'ccc"))
        let options = try copy("options") { $0["options"] = ["--quick", "--mode", "binary"] }
        #expect(refusal(["\(root)/share-1", options]).hasPrefix("\(options)/shard.json: options ['--quick', '--mode', 'binary'], but"))
        let schema = try copy("schema") { $0["schema"] = 2 }
        #expect(refusal(["\(root)/share-1", schema]) == "\(schema)/shard.json: schema: expected 1, got 2")
        // Booleans are not numbers (issue 48 #17): `true` once read as share 1.
        let boolean = try copy("boolean") { $0["shard"] = true }
        #expect(refusal(["\(root)/share-1", boolean]) == "\(boolean)/shard.json: shard: missing or not a int")
        let booleanSchema = try copy("boolean-schema") { $0["schema"] = true }
        #expect(refusal(["\(root)/share-1", booleanSchema]).hasPrefix("\(booleanSchema)/shard.json: schema: expected 1, got "))
        let outside = try copy("outside") { $0["shard"] = 3 }
        #expect(refusal(["\(root)/share-1", outside]) == "\(outside)/shard.json: shard: 3 lies outside 1...2")
        let elsewhere = try copy("elsewhere", edit: { $0["machine"] = ["cpu_model": "another CPU", "active_cores": 2] }, file: "base/run.json")
        #expect(refusal(["\(root)/share-1", elsewhere])
                == "\(elsewhere)/base/run.json: CPU 'another CPU', but \(root)/share-1/base/run.json has 'synthetic': shares measured on machines that differ cannot be judged together")
        #expect(refusal(["\(root)/share-1", "\(root)/nowhere"]) == "\(root)/nowhere/shard.json: no such file (not a share of compare-commits --shard)")
        // Nothing written: no merged folder, no staging folder.
        #expect(!Paths.entries(root).contains { $0.hasPrefix("bad") })
    }

    /// `--merge --out` replaces only what a merge wrote: a missing path, or an earlier merged
    /// comparison (also through a symbolic link to it). Refused, with everything left as it was:
    /// a directory holding the user's files, a share given (or a directory holding one), another
    /// share, a regular file, a device node, a FIFO, a dangling symbolic link.
    @Test func theMergeReplacesOnlyAnEarlierMergedComparison() throws {
        let root = try Self.writeShares(count: 2)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shares = ["\(root)/share-1", "\(root)/share-2"]
        func tree(_ path: String) -> [String: Data] {
            var files: [String: Data] = [:]
            for entry in FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [] {
                if let data = FileManager.default.contents(atPath: path + "/" + entry) { files[entry] = data }
            }
            return files
        }
        func refused(_ out: String, saying words: String) {
            let result = Self.merge(shares, out: out)
            #expect(result.status == nil, "\(out)")
            #expect(result.error?.message.hasPrefix("--out \(out): ") == true && result.error?.message.contains(words) == true,
                    "\(out): \(result.error?.message ?? "no error")")
        }
        let user = "\(root)/user"
        try FileManager.default.createDirectory(atPath: user, withIntermediateDirectories: true)
        try "mine\n".write(toFile: "\(user)/notes.txt", atomically: true, encoding: .utf8)
        refused(user, saying: "holds 'notes.txt'")
        #expect(try String(contentsOfFile: "\(user)/notes.txt", encoding: .utf8) == "mine\n")
        let share = tree(shares[0])
        refused(shares[0], saying: "the share \(shares[0]) given to --merge")
        refused(root, saying: "a directory holding the share")
        #expect(tree(shares[0]) == share && Paths.isFile(shares[0] + "/shard.json"))
        try FileManager.default.copyItem(atPath: shares[1], toPath: "\(root)/another")
        refused("\(root)/another", saying: "holds shard.json")
        try "file\n".write(toFile: "\(root)/file", atomically: true, encoding: .utf8)
        refused("\(root)/file", saying: "is a regular file, not a directory") 
        #expect(mkfifo("\(root)/fifo", 0o600) == 0)
        refused("\(root)/fifo", saying: "is a FIFO, not a directory")
        refused("/dev/null", saying: "is a character device, not a directory")
        try FileManager.default.createSymbolicLink(atPath: "\(root)/dangling", withDestinationPath: "\(root)/nothing")
        refused("\(root)/dangling", saying: "a symbolic link to nothing")
        #expect(try String(contentsOfFile: "\(root)/file", encoding: .utf8) == "file\n")
        #expect(!Paths.entries(root).contains { $0.contains(".tmp-") })
        // An earlier merge is replaced, through a link to it too; the link stays a link.
        #expect(Self.merge(shares, out: "\(root)/merged").status == 2)
        try FileManager.default.createSymbolicLink(atPath: "\(root)/latest", withDestinationPath: "\(root)/merged")
        #expect(Self.merge(shares, out: "\(root)/latest").status == 2)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(root)/latest")) == "\(root)/merged")
        #expect(Paths.isFile("\(root)/merged/compare.txt"))
    }

    // MARK: Arguments

    @Test func theOptionsMeanWhatTheScriptsOptionsMeant() throws {
        let parsed = try CompareCommitsArguments.parse(["--quick", "--threshold", "3%", "--mode", "binary", "--items", "1000", "A", "B", "list-query"])
        #expect(parsed.runOptions == ["--quick", "--mode", "binary", "--items", "1000"])
        // A timed change is claimed from eight pairs of processes, not compare's five.
        #expect(parsed.compareArguments == ["--threshold", "3%", "--change-repetitions", "8", "--metric", "time", "--metric", "peak_rss"])
        let five = try CompareCommitsArguments.parse(["--change-repetitions", "5", "A", "B"])
        #expect(try Judge.options(five.compareArguments).repetitionsForChange == 5)
        #expect(try Judge.options(parsed.compareArguments).repetitionsForChange == 8)
        // Shares recorded before the option judge as they were judged: by compare's default.
        #expect(try Judge.options(["--metric", "time"]).repetitionsForChange == 5)
        #expect(parsed.scenarios == ["list-query"])
        #expect(parsed.roundLimits.rounds == 5 && parsed.roundLimits.maxRounds == 30)
        let exact = try CompareCommitsArguments.parse(["--instructions", "--rounds", "3", "A", "B"])
        #expect(exact.roundLimits.rounds == 3 && exact.roundLimits.maxRounds == 3)
        #expect(exact.runOptions == ["--instructions"])
        // The exact gate judges the cache misses through estimated_cycles, not on their own.
        #expect(exact.compareArguments == ["--change-repetitions", "8", "--metric", "instructions", "--metric", "estimated_cycles",
                                           "--metric", "allocs", "--metric", "recall"])
        #expect(try CompareCommitsArguments.parse(["--rounds", "34", "A", "B"]).roundLimits.maxRounds == 34)
        #expect(try CompareCommitsArguments.parse(["--rounds", "12", "A", "B"]).roundLimits.maxRounds == 30)
        func problem(_ arguments: [String]) -> String {
            do { _ = try CompareCommitsArguments.parse(arguments); return "" } catch { return error.message }
        }
        #expect(problem(["--shard", "3/2", "A", "B"]) == "--shard expects K/N with 1 <= K <= N (e.g. 2/4), got '3/2'")
        #expect(problem(["--rounds", "0", "A", "B"]) == "--rounds expects a whole number >= 1, got '0'")
        #expect(problem(["--budget", "x", "A", "B"]) == "--budget expects whole minutes >= 0, got 'x'")
        #expect(problem(["--fast", "A", "B"]) == "unknown option '--fast'")
        #expect(problem(["--change-repetitions", "1", "A", "B"]) == "--change-repetitions expects a whole number >= 2, got '1'")
        #expect(problem(["--change-repetitions", "-3", "A", "B"]) == "--change-repetitions expects a whole number >= 2, got '-3'")
        var judgeRefusal = ""
        do { _ = try Judge.options(["--change-repetitions", "x"]) } catch { judgeRefusal = error.message }
        #expect(judgeRefusal == "--change-repetitions expects a whole number >= 2, got 'x'")
        #expect(problem(["A"]) == "give two commits, BASE and HEAD")
        #expect(problem(["--merge"]) == "--merge needs the shares' result folders")
    }

    // MARK: The whole driver over fake harnesses

    /// A stand-in for a commit's layout-bench: `run --help-hidden` lists the options (with
    /// `--duet` when `duet`), `list --json` two scenarios, and `run SCENARIO … --out DIR` writes a
    /// group's results (head's `b` 20% slower) and appends its arguments to `calls`; with
    /// `failRound`, the runs from that call on fail; with `wobble`, every other process of a side
    /// runs that much slower (a spread between processes that widens every row's θ). Each run
    /// also appends its file's inode, its path and its `--out` to `calls.code`.
    static func fakeHarness(_ path: String, calls: String, slow: Double, duet: Bool, failRound: Int? = nil, aFactor: Double = 1,
                            peakRSS: Int? = nil, wobble: Double = 0, failsVerification: Bool = false) throws {
        // A failed verification as `run` records it: failures.csv (b's binary mode at 1000 items), exit 1.
        let failedVerification = "printf '\(FailureRow.header.joined(separator: ","))\\n2,r,abc,b,query,binary,1000,,build,verification,"
            + "b: mode binary at 1000 items disagrees with the reference: off\\n' >\"$out/failures.csv\"; exit 1"
        let script = """
            #!/bin/sh
            if [ "$1" = list ]; then echo '{"scenarios": [{"name": "a", "items": [1000]}, {"name": "b", "items": [1000, 2000]}]}'; exit 0; fi
            if [ "$2" = --help-hidden ]; then echo '--verified --verify-only --brief \(duet ? "--duet" : "")'; exit 0; fi
            echo "$0 $*" >>"\(calls)"
            out=""; scenario="$2"; items=1000; prev=""
            for a in "$@"; do [ "$prev" = --out ] && out=$a; [ "$prev" = --items ] && items=$a; prev=$a; done
            echo "$(ls -i "$0" | awk '{ print $1 }') $0 $out" >>"\(calls).code"
            mkdir -p "$out"
            n=$(grep -c . "\(calls)")
            \(failRound.map { "[ \"$n\" -ge \($0) ] && case \"$*\" in *--verify-only*) ;; *) echo 'boom' >&2; exit 1;; esac" } ?? "")
            case "$*" in *--verify-only*) echo '{"start_time": "2026-11-26T10:00:00Z"}' >"$out/run.json"; \(failsVerification ? failedVerification : "exit 0");; esac
            factor=\(aFactor); [ "$scenario" = b ] && factor=\(slow)
            [ $((n % 2)) = 1 ] && factor=$(awk -v f=$factor 'BEGIN { print f * (1 + \(wobble)) }')
            { echo 'schema,run_id,commit,scenario,workload,mode,items,operation,repetition,sample,metric,unit,value'
              for s in 1 2 3 4 5 6 7 8 9 10; do
                echo "2,r$n,abc,$scenario,query,binary,$items,query,1,$s,time,ns,$(awk -v f=$factor -v s=$s -v n=$n 'BEGIN { print 100 * f * (1 + 0.001 * ((s * 7 + n * 3) % 5)) }')"
              done
              \(peakRSS.map { "echo \"2,r$n,abc,$scenario,query,,$items,,1,1,peak_rss,bytes,\($0)\"" } ?? "")
            } | gzip >"$out/samples.csv.gz"
            echo '{"start_time": "2026-11-26T10:00:00Z", "end_time": "2026-11-26T10:00:01Z", "machine": {"cpu_model": "fake"}}' >"$out/run.json"
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    /// A scratch git repository with `commits` empty commits, the driver's root (it names its
    /// folder by the commits and keeps its markers in .build-commits there).
    static func repository(commits: Int = 1) throws -> String? {
        let root = try makeScratchDirectory("driver")
        var made = Commits.git(["init", "-q"], in: root).status == 0
        for number in 0..<commits where made {
            made = Commits.git(["-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "--allow-empty", "-m", "test \(number)"],
                               in: root).status == 0
        }
        guard made else {
            try? FileManager.default.removeItem(atPath: root)
            return nil
        }
        return root
    }

    /// A scratch repository (nil where git cannot make one) with fake harnesses `base` and `head`
    /// (`head`'s `b` `headSlow` times slower) and the arguments of a comparison of HEAD with itself
    /// over them (over `base` alone with `oneBinary`), with `options` and no chart. The caller
    /// removes `root`.
    static func fakeComparison(_ options: [String], headSlow: Double = 1, duet: Bool = false, failRound: Int? = nil,
                               wobble: Double = 0, oneBinary: Bool = false, baseFailsVerification: Bool = false)
        throws -> (root: String, arguments: CompareCommitsArguments)? {
        guard let root = try repository() else { return nil }
        try FileManager.default.createDirectory(atPath: "\(root)/.build-commits", withIntermediateDirectories: true)
        try fakeHarness("\(root)/base", calls: "\(root)/base-calls", slow: 1, duet: duet, failRound: failRound, wobble: wobble,
                        failsVerification: baseFailsVerification)
        try fakeHarness("\(root)/head", calls: "\(root)/head-calls", slow: headSlow, duet: duet, wobble: wobble)
        var arguments = try CompareCommitsArguments.parse(
            ["--no-plot"] + options + ["--base-binary", "\(root)/base", "--head-binary", "\(root)/\(oneBinary ? "base" : "head")", "HEAD", "HEAD"])
        arguments.plot = false
        return (root, arguments)
    }

    /// Head's `b` 20% slower: five rounds of every group, then — as a change is claimed only from
    /// eight pairs — three more of `b`'s two groups alone, whose rows looked changed; then `b` is
    /// `regressed` and `a` unchanged.
    @Test func aComparisonOverFakeHarnessesRunsRoundsAndJudges() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--back-to-back", "--max-rounds", "10"], headSlow: 1.2) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let status = try CompareCommits(arguments: arguments, root: root).run()
        #expect(status == 2)
        let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
        let folder = "\(root)/results/compare/\(short)..\(short)"
        let csv = try String(contentsOfFile: "\(folder)/compare.csv", encoding: .utf8)
        #expect(csv.split(separator: "\n").filter { $0.hasPrefix("b,") && $0.contains("regressed") }.count == 2)
        #expect(csv.split(separator: "\n").filter { $0.hasPrefix("a,") && $0.contains("unchanged") }.count == 1)
        // Verification once (an A/A of one commit verifies once), then 3 groups × 5 rounds a
        // side and b's 2 groups × 3 rounds, each with --brief and --verified.
        let baseCalls = try String(contentsOfFile: "\(root)/base-calls", encoding: .utf8).split(separator: "\n")
        #expect(baseCalls.count == 1 + 15 + 6)
        #expect(baseCalls[0].contains("--verify-only"))
        #expect(baseCalls.dropFirst().allSatisfy { $0.contains("--brief") && $0.contains("--verified") && !$0.contains("--duet") })
        #expect(baseCalls.dropFirst(16).allSatisfy { $0.contains(" run b ") }, "\(baseCalls.dropFirst(16))")
        #expect(Paths.entries("\(folder)/base/rounds") == (1...8).map { "round-\($0).json" } + ["verify.json"])
        #expect(!Paths.entries("\(root)/results/compare").contains { $0.contains(".tmp-") })
    }

    /// Every timed round runs fresh copies of both sides' binaries (CodePlacement): never the
    /// harness itself, one file per side and round, a new one (another inode) each round, the two
    /// sides of an A/A of one binary on two copies, none left once the comparison ends.
    @Test func everyRoundRunsFreshCopiesOfBothBinaries() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--back-to-back", "--max-rounds", "5"], oneBinary: true) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try CompareCommits(arguments: arguments, root: root).run()
        let runs = try String(contentsOfFile: "\(root)/base-calls.code", encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: " ").map(String.init) }
        var code: [String: Set<[String]>] = [:]  // "side round" → {[inode, path]}
        for run in runs where run.count == 3 {
            let out = run[2].split(separator: "/").map(String.init)
            guard let at = out.lastIndex(where: { $0.hasPrefix("round-") }), at > 0 else {
                #expect(run[1] == "\(root)/base", "verification runs the harness: \(run)")
                continue
            }
            code["\(out[at - 1]) \(out[at].dropFirst(6))", default: []].insert([run[0], run[1]])
        }
        #expect(code.count == 10, "\(code.keys.sorted())")
        for round in 1...5 {
            let base = code["base \(round)"] ?? [], head = code["head \(round)"] ?? []
            #expect(base.count == 1 && head.count == 1, "round \(round): \(base) \(head)")
            guard let b = base.first, let h = head.first else { continue }
            #expect(b[1] != "\(root)/base" && h[1] != "\(root)/base", "round \(round)")
            #expect(b[0] != h[0] && b[1] != h[1], "round \(round): both sides on one file")
            if round > 1, let before = code["base \(round - 1)"]?.first, let headBefore = code["head \(round - 1)"]?.first {
                #expect(before[0] != b[0] && headBefore[0] != h[0], "round \(round) ran the previous round's file")
            }
        }
        let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
        #expect(!Paths.entries("\(root)/results/compare/\(short)..\(short)").contains("code"))
    }

    /// Duets run both their processes at once while they build their fixtures: the load the
    /// merged run.json counts as the comparison's own is two per lane (back to back, one a lane).
    @Test func aDuetCountsBothItsProcessesAsTheComparisonsOwnLoad() throws {
        let lanes = ProcessInfo.processInfo.activeProcessorCount >= 2 ? 2 : 1
        for (options, own) in [([String](), 2 * lanes), (["--back-to-back"], 1)] {
            guard let (root, arguments) = try Self.fakeComparison(options + ["--max-rounds", "5"], duet: true) else { return }
            defer { try? FileManager.default.removeItem(atPath: root) }
            _ = try CompareCommits(arguments: arguments, root: root).run()
            let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
            let record = try JSONFile.read(RunManifest.self, "\(root)/results/compare/\(short)..\(short)/base/run.json")
            #expect(record.load?.ownProcesses == own, "\(options)")
        }
    }

    /// The same slowdown when `--max-rounds 5` allows no more rounds: `b` looked changed but has
    /// five pairs, so it stays `noisy` (exit 3) and compare.txt says why; `--change-repetitions 5`
    /// claims it from the same five rounds.
    @Test func aChangeSeenInTooFewRoundsStaysNoisy() throws {
        for (options, expected) in [(["--max-rounds", "5"], Int32(3)), (["--max-rounds", "5", "--change-repetitions", "5"], 2)] {
            guard let (root, arguments) = try Self.fakeComparison(["--back-to-back"] + options, headSlow: 1.2) else { return }
            defer { try? FileManager.default.removeItem(atPath: root) }
            #expect(try CompareCommits(arguments: arguments, root: root).run() == expected, "\(options)")
            let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
            let text = try String(contentsOfFile: "\(root)/results/compare/\(short)..\(short)/compare.txt", encoding: .utf8)
            #expect(text.contains("2 rows look changed but have fewer than 8 repetitions a side") == (expected == 3), "\(options)")
            #expect(text.contains("a change from \(expected == 3 ? 8 : 5) repetitions a side"), "\(options)")
        }
    }

    /// A shard verifies its own groups, one run per item count, not each of its scenarios' whole
    /// sweep: shard 1 of 2 holds a at 1,000 and b at 2,000 (b at 1,000 is shard 2's).
    @Test func aShardVerifiesOnlyItsGroups() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--back-to-back", "--shard", "1/2", "--max-rounds", "5"]) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try CompareCommits(arguments: arguments, root: root).run()
        let calls = try String(contentsOfFile: "\(root)/base-calls", encoding: .utf8).split(separator: "\n")
        let verifications = calls.filter { $0.contains("--verify-only") }.map { line in
            line.split(separator: " ").dropFirst().filter { !$0.hasPrefix("/") }.joined(separator: " ")
        }
        #expect(verifications == ["run a --items 1000 --verify-only --repetitions 1 --out",
                                  "run b --items 2000 --verify-only --repetitions 1 --out"])
        let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
        let rounds = Paths.entries("\(root)/results/compare/\(short)..\(short)-shard-1-of-2/base/rounds")
        #expect(rounds.contains("verify-items-1000.json") && rounds.contains("verify-items-2000.json"))
        #expect(RoundSchedule.verificationBatches(nil, scenarios: ["a", "b"]) == [.init(scenarios: ["a", "b"], items: nil)])
    }

    /// compare.txt names what ended the rounds: with rows still unsettled (every other process
    /// slower widens every θ), `--max-rounds` did. The budget never runs short here, so its line
    /// must not appear; a round the budget cut short before `--max-rounds` ended the rounds needs
    /// minutes of children and is not exercised.
    @Test func compareSaysWhenMaxRoundsLeftRowsUnsettled() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--back-to-back", "--max-rounds", "6"], wobble: 0.3) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try CompareCommits(arguments: arguments, root: root).run()
        let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
        let text = try String(contentsOfFile: "\(root)/results/compare/\(short)..\(short)/compare.txt", encoding: .utf8)
        #expect(text.contains("measured in 6 rounds"))
        #expect(text.contains("--max-rounds 6 ended the rounds with 3 scenario group(s) that more rounds would have helped"))
        #expect(!text.contains("the budget of"))
    }

    /// The exact track runs each side's whole selection once, verifying and counting allocations
    /// in that run: no `--verified` (which skips both), no separate verification.
    @Test func theExactTrackVerifiesAndCountsInItsOwnRun() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--instructions"]) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try? CompareCommits(arguments: arguments, root: root).run()
        for side in ["base", "head"] {
            let calls = try String(contentsOfFile: "\(root)/\(side)-calls", encoding: .utf8).split(separator: "\n")
            #expect(calls.count == 1)
            #expect(calls.allSatisfy { $0.contains(" run ") && $0.contains("--instructions") && !$0.contains("--verified") && !$0.contains("--verify-only") })
        }
    }

    /// A child that fails in a later round ends the comparison with one error naming it; the
    /// comparison's folder is removed, and the results of an earlier comparison stay intact.
    @Test func aFailedComparisonLeavesEarlierResultsIntact() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--back-to-back"], duet: true, failRound: 4) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let head = try Commits.resolve("HEAD", in: root)
        let short = Commits.short(head, in: root)
        let folder = "\(root)/results/compare/\(short)..\(short)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "earlier\n".write(toFile: "\(folder)/compare.txt", atomically: true, encoding: .utf8)
        #expect {
            _ = try CompareCommits(arguments: arguments, root: root).run()
        } throws: { error in
            (error as? DriverError)?.message.hasPrefix("layout-bench run of base (\(short)) failed in round") == true
        }
        #expect(try String(contentsOfFile: "\(folder)/compare.txt", encoding: .utf8) == "earlier\n")
        #expect(Paths.entries("\(root)/results/compare") == ["\(short)..\(short)"])
    }

    /// A build that fails is one error line naming the commit and how the command ended (a
    /// command that says nothing, as /bin/false, included); a build that prints what is not an
    /// executable file is refused by name, never with a Foundation error code.
    @Test func aFailedBuildIsOneLineNamingTheCommit() throws {
        let root = try makeScratchDirectory("build")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hash = String(repeating: "ab", count: 20)
        func failure(_ command: String) -> String {
            do { _ = try Commits.build(hash, with: command); return "built" } catch { return error.message }
        }
        #expect(failure("/bin/false") == "commit abababa could not be built: /bin/false exited with status 1")
        for (printed, why) in [("\(root)/nothing", "No such file or directory"), (root, "a directory, not an executable file"),
                               ("\(root)/plain", "not executable"), ("", "printed no path")] {
            try "plain\n".write(toFile: "\(root)/plain", atomically: true, encoding: .utf8)
            try "#!/bin/sh\necho '\(printed)'\n".write(toFile: "\(root)/build", atomically: true, encoding: .utf8)
            chmod("\(root)/build", 0o755)
            let message = failure("\(root)/build")
            #expect(message.contains(why) && !message.contains("NSCocoaErrorDomain"), "\(printed): \(message)")
        }
        #expect(failure("\(root)/missing-command") == "--build-command \(root)/missing-command: No such file or directory")
        #expect(failure(root) == "--build-command \(root): a directory, not an executable file")
    }

    /// Each build runs with a TMPDIR of its own, removed when it ends, failed or not: SwiftPM's
    /// `TemporaryDirectory.*` and `*.lock` files stay out of the user's TMPDIR.
    @Test func aBuildKeepsItsTemporaryFilesToItself() throws {
        let root = try makeScratchDirectory("build")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for status in [0, 1] {
            try """
                #!/bin/sh
                echo "$TMPDIR" >"\(root)/seen"
                mkdir "$TMPDIR/TemporaryDirectory.abc" && touch "$TMPDIR/build.lock" "$TMPDIR/TemporaryDirectory.abc/x"
                echo /bin/sh
                exit \(status)
                """.write(toFile: "\(root)/build", atomically: true, encoding: .utf8)
            chmod("\(root)/build", 0o755)
            _ = try? Commits.build(String(repeating: "c", count: 40), with: "\(root)/build")
            let seen = try String(contentsOfFile: "\(root)/seen", encoding: .utf8).trimmingCharacters(in: .newlines)
            let ours = TemporaryDirectory.path
            #expect(!seen.isEmpty && URL(fileURLWithPath: seen).standardized.path != URL(fileURLWithPath: ours).standardized.path,
                    "status \(status): the build used TMPDIR \(seen)")
            #expect(!Paths.exists(seen), "status \(status): \(seen) left behind")
            if seen == ours { Paths.remove(seen + "/TemporaryDirectory.abc"); Paths.remove(seen + "/build.lock") }
        }
    }

    /// git's own lines (`fatal: bad revision`) come after the driver's line, as its details,
    /// never on stderr before it.
    @Test func gitsOwnLinesAreDetailsOfTheDriversError() throws {
        guard let root = try Self.repository(commits: 1) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        var error: DriverError?
        do { _ = try Commits.range("nosuch..HEAD", in: root) } catch let caught { error = caught }
        #expect(error?.message == "'nosuch..HEAD' is not a revision range of this repository")
        #expect(error?.details.first?.hasPrefix("git: fatal:") == true, "\(error?.details ?? [])")
        #expect(Commits.hashes("warning: x\n0123456789abcdef0123456789abcdef01234567\n") == ["0123456789abcdef0123456789abcdef01234567"])
    }

    /// A binary given that cannot run is found before anything is measured or verified.
    @Test func aMissingBinaryIsFoundFirst() throws {
        guard let (root, parsed) = try Self.fakeComparison(["--back-to-back", "--max-rounds", "5"]) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        var arguments = parsed
        arguments.baseBinary = "\(root)/nonexistent"
        var message = ""
        do { _ = try CompareCommits(arguments: arguments, root: root).run() } catch { message = error.message }
        #expect(message == "--base-binary \(root)/nonexistent: No such file or directory")
        #expect(!Paths.exists("\(root)/head-calls"), "the head was run before the base binary was checked")
    }

    /// The verification marker is keyed by content: the same scenario path with other content,
    /// a rewritten data file, an edited file of the scenarios directory or another
    /// LAYOUT_BENCH_FONT_DIRS value is another key (verified again); the same input, the same key.
    @Test func theVerificationMarkerIsKeyedByContent() throws {
        let root = try makeScratchDirectory("marker")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/Scenarios", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: "\(root)/binary", atomically: true, encoding: .utf8)
        try #"{"name": "s", "data": {"file": "s.csv"}}"#.write(toFile: "\(root)/s.json", atomically: true, encoding: .utf8)
        try "h\n1\n".write(toFile: "\(root)/s.csv", atomically: true, encoding: .utf8)
        try #"{"name": "n"}"#.write(toFile: "\(root)/Scenarios/n.json", atomically: true, encoding: .utf8)
        func key(_ scenarios: [String]) -> String? {
            VerifiedMarker.path(root: root, commit: "c", binary: "\(root)/binary", scenarios: scenarios, options: ["--quick"], directory: root)
        }
        for scenarios in [["s.json"], ["\(root)/s.json"], ["n"], []] {
            let before = key(scenarios)
            #expect(before != nil && key(scenarios) == before, "\(scenarios)")
        }
        let path = key(["s.json"]), absolute = key(["\(root)/s.json"]), named = key(["n"]), all = key([])
        try #"{"name": "s", "data": {"file": "s.csv"}, "items": [1]}"#.write(toFile: "\(root)/s.json", atomically: true, encoding: .utf8)
        #expect(key(["s.json"]) != path && key(["\(root)/s.json"]) != absolute)
        let edited = key(["s.json"])
        try "h\n2\n".write(toFile: "\(root)/s.csv", atomically: true, encoding: .utf8)
        #expect(key(["s.json"]) != edited)
        try #"{"name": "n", "items": [2]}"#.write(toFile: "\(root)/Scenarios/n.json", atomically: true, encoding: .utf8)
        #expect(key(["n"]) != named && key([]) != all)
        #expect(VerifiedMarker.inputFiles(scenarios: ["s.json", "n"], directory: root) == ["\(root)/Scenarios/n.json", "\(root)/s.csv", "\(root)/s.json"])
    }

    /// A mode that fails its verification is judged `failed` (exit 2, first in compare.txt and
    /// compare.csv), not a driver error and never a pass; no round is run. (HEAD against itself
    /// verifies once, so the group failed on both sides.)
    @Test func aFailedVerificationIsJudgedFailed() throws {
        guard let (root, arguments) = try Self.fakeComparison(["--back-to-back"], baseFailsVerification: true) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try CompareCommits(arguments: arguments, root: root).run() == 2)
        let short = Commits.short(try Commits.resolve("HEAD", in: root), in: root)
        let folder = "\(root)/results/compare/\(short)..\(short)"
        let text = try String(contentsOfFile: "\(folder)/compare.txt", encoding: .utf8)
        #expect(text.contains("failed (1): ") && text.contains("  b binary 1000: failed in base and in head"))
        #expect(text.contains("1 failed, 0 regressed, 0 noisy, 0 improved, 0 unchanged") && text.contains("no round was run"))
        let csv = try String(contentsOfFile: "\(folder)/compare.csv", encoding: .utf8).split(separator: "\n")
        #expect(csv.count == 2 && csv[1].hasPrefix("b,query,binary,1000,") && csv[1].hasSuffix(",failed,failed-in-both"))
        #expect(try FailureRow.load(besideIn: folder + "/base").map(\.mode) == ["binary"])
        let calls = try String(contentsOfFile: "\(root)/base-calls", encoding: .utf8).split(separator: "\n")
        #expect(calls.count == 1 && calls[0].contains("--verify-only"))
    }

    // MARK: history

    /// history over three commits of fake harnesses: the 2nd makes `b` 20% slower, the 3rd
    /// makes `a` 20% faster and every process 20% larger (peak_rss). Each commit verifies once, neighbours run as duets, and the
    /// judgement of each step names exactly the rows it changed; a commit measured again later
    /// is not verified again (the marker compare-commits also keeps).
    @Test func historySaysWhichStepChangedWhichRows() throws {
        guard let root = try Self.repository(commits: 4) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/.build-commits", withIntermediateDirectories: true)
        let hashes = try Commits.range("HEAD~3..HEAD", in: root)
        #expect(hashes.count == 3)
        let factors: [(a: Double, b: Double, rss: Int)] = [(1, 1, 30_000_000), (1, 1.2, 30_000_000), (0.8, 1.2, 36_000_000)]
        for (hash, factor) in zip(hashes, factors) {
            try Self.fakeHarness("\(root)/harness-\(hash)", calls: "\(root)/calls-\(hash)", slow: factor.b, duet: true, aFactor: factor.a,
                                 peakRSS: factor.rss)
        }
        // The build command prints each commit's binary, as scripts/build-commit does.
        try "#!/bin/sh\necho \"\(root)/harness-$1\"\n".write(toFile: "\(root)/build", atomically: true, encoding: .utf8)
        chmod("\(root)/build", 0o755)
        let arguments = try HistoryArguments.parse(["--machine", "test", "--no-plot", "--build-command", "\(root)/build",
                                                    "--rounds", "5", "HEAD~3..HEAD"])
        #expect(arguments.rounds == 5)
        #expect(try History(arguments: arguments, root: root).run() == 0)

        let store = "\(root)/results/history/test"
        #expect(try String(contentsOfFile: "\(store)/commits.txt", encoding: .utf8) == hashes.map { $0 + "\n" }.joined())
        let short = hashes.map { String($0.prefix(7)) }
        // base,head,verdict,scenario,mode,items,operation,metric,…: one line per changed row.
        let changed = try String(contentsOfFile: "\(store)/neighbours.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(8).joined(separator: " ") }
        #expect(changed.sorted() == [
            "\(short[0]) \(short[1]) regressed b binary 1000 query time", "\(short[0]) \(short[1]) regressed b binary 2000 query time",
            "\(short[1]) \(short[2]) improved a binary 1000 query time",
            "\(short[1]) \(short[2]) regressed a  1000  peak_rss", "\(short[1]) \(short[2]) regressed b  1000  peak_rss",
            "\(short[1]) \(short[2]) regressed b  2000  peak_rss",
        ].sorted())
        let text = try String(contentsOfFile: "\(store)/neighbours.txt", encoding: .utf8)
        #expect(text.contains("\(short[0]) → \(short[1]): 2 regressed (b binary 1000 query ×1.2"))
        #expect(text.contains("\(short[1]) → \(short[2]): 3 regressed ("))
        #expect(text.contains("a 1000 peak_rss ×1.200"))
        #expect(text.contains(" 1 improved (a binary 1000 query ×0.8"))
        #expect(!text.contains("undecided") && !text.contains("not paired"))
        // Each commit's run.json: this session's name, and the driver's own processes (its
        // neighbours are paired rounds, judged as compare-commits judges its sides).
        let records = try hashes.map { try JSONFile.read(RunManifest.self, "\(store)/\($0)/run.json") }
        #expect(Set(records.compactMap(\.historySession)).count == 1)
        #expect(records.allSatisfy { $0.load?.ownProcesses != nil })
        for hash in hashes {
            let calls = try String(contentsOfFile: "\(root)/calls-\(hash)", encoding: .utf8).split(separator: "\n")
            // Verified once, then 3 groups × 5 rounds, each brief and --verified.
            #expect(calls.count == 1 + 15)
            #expect(calls.filter { $0.contains("--verify-only") }.count == 1)
            #expect(calls.filter { !$0.contains("--verify-only") }.allSatisfy { $0.contains("--brief") && $0.contains("--verified") })
            // Every commit has a neighbour, so each ran some of its groups as a duet.
            #expect(calls.contains { $0.contains("--duet") })
            // Verified by the harness itself, timed from a fresh copy each round (CodePlacement).
            let code = Set(calls.map { String($0.split(separator: " ")[0]) })
            #expect(code.count == 1 + 5 && calls.filter { $0.hasPrefix("\(root)/harness-\(hash) ") }.count == 1, "\(code)")
            #expect(Paths.isFile("\(store)/\(hash)/samples.csv.gz"))
        }
        #expect(!Paths.entries(store).contains { $0.contains(".tmp") })

        // The middle commit measured again: its verification passed before and is remembered.
        try FileManager.default.removeItem(atPath: "\(store)/\(hashes[1])")
        #expect(try History(arguments: arguments, root: root).run() == 0)
        let again = try String(contentsOfFile: "\(root)/calls-\(hashes[1])", encoding: .utf8).split(separator: "\n")
        #expect(again.count == 1 + 15 + 15)
        #expect(again.filter { $0.contains("--verify-only") }.count == 1)
        // Measured by another session than its neighbours: its steps say they are not paired.
        let later = try String(contentsOfFile: "\(store)/neighbours.txt", encoding: .utf8)
        #expect(later.contains("\(short[0]) → \(short[1]): 2 regressed") && later.contains("not paired rounds"))
        // The others were stored and not run again.
        #expect(try String(contentsOfFile: "\(root)/calls-\(hashes[0])", encoding: .utf8).split(separator: "\n").count == 16)
    }

    /// A fake history of `count` commits over fake harnesses, stored once; returns the root,
    /// the commits and the arguments that ran it. nil where git cannot make a repository.
    static func storedHistory(count: Int = 2, machine: String = "test") throws -> (root: String, hashes: [String], arguments: HistoryArguments)? {
        guard let root = try repository(commits: count + 1) else { return nil }
        try FileManager.default.createDirectory(atPath: "\(root)/.build-commits", withIntermediateDirectories: true)
        let hashes = try Commits.range("HEAD~\(count)..HEAD", in: root)
        for hash in hashes {
            try fakeHarness("\(root)/harness-\(hash)", calls: "\(root)/calls-\(hash)", slow: 1, duet: true, peakRSS: 30_000_000)
        }
        try "#!/bin/sh\necho \"\(root)/harness-$1\"\n".write(toFile: "\(root)/build", atomically: true, encoding: .utf8)
        chmod("\(root)/build", 0o755)
        let arguments = try HistoryArguments.parse(["--machine", machine, "--no-plot", "--build-command", "\(root)/build",
                                                    "--rounds", "2", "HEAD~\(count)..HEAD"])
        #expect(try History(arguments: arguments, root: root).run() == 0)
        return (root, hashes, arguments)
    }

    /// A machine's name is the name of its folder in results/history, never a path: `..`, `/`,
    /// an empty name, a hidden one and control characters are refused before anything is
    /// built, and nothing is written outside results/history/<machine>.
    @Test func aMachineNameIsAName() throws {
        for bad in ["../../escape", "", ".", "..", "a/b", ".hidden", "bell\u{7}", String(repeating: "m", count: 65)] {
            var arguments = HistoryArguments()
            arguments.machine = bad
            arguments.positional = ["HEAD"]
            arguments.buildCommand = "/nonexistent"
            guard let root = try Self.repository(commits: 1) else { return }
            defer { try? FileManager.default.removeItem(atPath: root) }
            var message = ""
            do { _ = try History(arguments: arguments, root: root).run() } catch { message = error.message }
            #expect(message.hasPrefix("--machine '") && message.contains("a machine's name is the name of its folder"), "\(bad): \(message)")
            #expect(!message.contains("\u{7}"))
            #expect(!Paths.exists("\(root)/results"), "\(bad)")
            #expect(!Paths.exists("\(root)/../escape"), "\(bad)")
        }
        #expect(History.isMachineName("ci-runner_2.eu"))
        #expect(History.machineName(fromHost: "box.example.com") == "box" && History.machineName(fromHost: "../x") == "x" && History.machineName(fromHost: "..") == "machine")
    }

    /// Stored results are read back with compare's readers: tampered, truncated or bombed, each
    /// is one error naming the file and history fails (never "median 242 → −7 ns", exit 0).
    @Test func historyReadsItsStoreAsCompareReadsResults() throws {
        guard let (root, hashes, arguments) = try Self.storedHistory() else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = "\(root)/results/history/test"
        let samples = "\(store)/\(hashes[1])/samples.csv.gz"
        let original = try ResultsFile.contents(of: samples)
        let text = String(decoding: original, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        func negative() -> String {
            var changed = lines
            var fields = changed[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[12] = "-7"
            changed[1] = fields.joined(separator: ",")
            return changed.joined(separator: "\n") + "\n"
        }
        let compressed = try Gzip.compress(original)
        let tampered: [(String, [UInt8], String)] = [
            ("a negative value", try Gzip.compress(Array(negative().utf8)), "line 2"),
            ("truncated gzip", Array(compressed.prefix(compressed.count / 2)), samples),
            ("an empty file", [], samples),
            ("a row twice", try Gzip.compress(Array((lines.joined(separator: "\n") + "\n" + lines[1] + "\n").utf8)), samples),
            ("a missing column", try Gzip.compress(Array((lines.map { $0.split(separator: ",").dropLast().joined(separator: ",") }
                .joined(separator: "\n") + "\n").utf8)), samples),
            ("schema 9", try Gzip.compress(Array((lines.enumerated().map { $0.offset == 0 ? $0.element : "9" + $0.element.dropFirst() }
                .joined(separator: "\n") + "\n").utf8)), samples),
        ]
        for (what, bytes, named) in tampered {
            try Data(bytes).write(to: URL(fileURLWithPath: samples))
            var message = ""
            do { _ = try History(arguments: arguments, root: root).run() } catch { message = error.message }
            #expect(message.contains(samples) && message.contains(named), "\(what): \(message)")
        }
        // A bomb: the rows followed by newlines past any cap (here, a small one), refused while reading.
        try Data(try Gzip.compress(original + [UInt8](repeating: UInt8(ascii: "\n"), count: 1 << 22))).write(to: URL(fileURLWithPath: samples))
        #expect(throws: CompareError.self) { _ = try ResultSet.load("\(store)/\(hashes[1])", limit: 1 << 20) }
        var message = ""
        do { _ = try History(arguments: arguments, root: root).run() } catch { message = error.message }
        #expect(message.contains(samples), "bomb: \(message)")
        // CRLF record ends are CSV as compare reads it (RFC 4180): the same medians as LF.
        try Data(compressed).write(to: URL(fileURLWithPath: samples))
        try StoredCommits.writeMedians(store: store, to: "\(root)/lf.csv")
        try Data(try Gzip.compress(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))).write(to: URL(fileURLWithPath: samples))
        try StoredCommits.writeMedians(store: store, to: "\(root)/crlf.csv")
        #expect(try String(contentsOfFile: "\(root)/lf.csv", encoding: .utf8) == String(contentsOfFile: "\(root)/crlf.csv", encoding: .utf8))
        try Data(compressed).write(to: URL(fileURLWithPath: samples))
        #expect(try History(arguments: arguments, root: root).run() == 0)
        // Neighbours with no row in common (every scenario renamed) are said to be, not an error.
        let renamed = lines.enumerated().map { line -> String in
            var fields = line.element.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if line.offset > 0 { fields[3] += "-new" }
            return fields.joined(separator: ",")
        }
        try Data(try Gzip.compress(Array((renamed.joined(separator: "\n") + "\n").utf8))).write(to: URL(fileURLWithPath: samples))
        #expect(try History(arguments: arguments, root: root).run() == 0)
        #expect(try String(contentsOfFile: "\(store)/neighbours.txt", encoding: .utf8).contains("no row in common, nothing to compare"))
    }

    /// The step detector is given the medians of the stored samples as compare's readers read
    /// them (`--medians`), never the samples: steps.py's own reader is not what history judges by.
    @Test func theStepDetectorReadsTheMediansHistoryTook() throws {
        guard let (root, hashes, _) = try Self.storedHistory() else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = "\(root)/results/history/test"
        let medians = "\(root)/medians.csv"
        try StoredCommits.writeMedians(store: store, to: medians)
        let rows = try String(contentsOfFile: medians, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "commit,scenario,mode,items,operation,median")
        // Three groups a commit (a 1000, b 1000, b 2000), one time row each.
        #expect(rows.dropFirst().count == 3 * hashes.count)
        #expect(rows.dropFirst().allSatisfy { row in hashes.contains { row.hasPrefix($0 + ",") } })
        // The convention of Python's statistics.median, which steps.py used on the samples itself.
        #expect(Quantile.median([3, 1, 2]) == 2 && Quantile.median([4, 1, 2, 3]) == 2.5)
    }

    /// history replaces only regular files in its store: a FIFO `steps.csv` or a symbolic link
    /// `commits.txt` is refused with one error, and left as it was (never waited on).
    @Test func historyRefusesSpecialFilesInItsStore() throws {
        guard let (root, _, arguments) = try Self.storedHistory() else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = "\(root)/results/history/test"
        for (name, make) in [("steps.csv", { (path: String) in _ = mkfifo(path, 0o600) }),
                             ("commits.txt", { (path: String) in try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "\(root)/elsewhere") }),
                             ("neighbours.txt", { (path: String) in try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) })] {
            Paths.remove("\(store)/\(name)")
            make("\(store)/\(name)")
            var message = ""
            do { _ = try History(arguments: arguments, root: root).run() } catch { message = error.message }
            #expect(message.hasPrefix("\(store)/\(name): is ") && message.contains("not a regular file"), "\(name): \(message)")
            var info = stat()
            #expect(lstat("\(store)/\(name)", &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "\(name) replaced")
            #expect(!Paths.exists("\(root)/elsewhere"))
            Paths.remove("\(store)/\(name)")
        }
        #expect(try History(arguments: arguments, root: root).run() == 0)
    }

    /// A stored commit whose run failed a mode (its failures.csv) is no silent step: its step is
    /// judged `failed` in neighbours.txt and neighbours.csv, and history exits non-zero counting it.
    @Test func historyCountsAStoredCommitThatFailedAMode() throws {
        guard let root = try Self.repository(commits: 3) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/.build-commits", withIntermediateDirectories: true)
        let hashes = try Commits.range("HEAD~2..HEAD", in: root)
        for hash in hashes { try Self.fakeHarness("\(root)/harness-\(hash)", calls: "\(root)/calls-\(hash)", slow: 1, duet: true) }
        try "#!/bin/sh\necho \"\(root)/harness-$1\"\n".write(toFile: "\(root)/build", atomically: true, encoding: .utf8)
        chmod("\(root)/build", 0o755)
        let arguments = try HistoryArguments.parse(["--machine", "test", "--no-plot", "--build-command", "\(root)/build",
                                                    "--rounds", "2", "HEAD~2..HEAD"])
        #expect(try History(arguments: arguments, root: root).run() == 0)
        let store = "\(root)/results/history/test"
        let failure = FailureRow(scenario: "b", workload: "query", mode: "binary", items: 1000, step: .build, check: .verification,
                                 message: "b: mode binary at 1000 items disagrees with the reference: off")
        try FailureRow.csv([failure], runID: "r", commit: "abc").write(toFile: "\(store)/\(hashes[1])/failures.csv", atomically: true, encoding: .utf8)
        #expect {
            _ = try History(arguments: arguments, root: root).run()
        } throws: { error in
            (error as? DriverError)?.message == "1 scenario group(s) failed in stored commits (neighbours.txt names them)"
        }
        let text = try String(contentsOfFile: "\(store)/neighbours.txt", encoding: .utf8)
        #expect(text.contains("\(hashes[0].prefix(7)) → \(hashes[1].prefix(7)): 1 failed (b binary 1000: failed in head, verified in base)"))
        let csv = try String(contentsOfFile: "\(store)/neighbours.csv", encoding: .utf8)
        #expect(csv.contains("\(hashes[0].prefix(7)),\(hashes[1].prefix(7)),failed,b,binary,1000,"))
    }

    @Test func historyRoundsAsGivenEvenWhenQuick() throws {
        #expect(try HistoryArguments.parse(["--quick"]).rounds == 2)
        #expect(try HistoryArguments.parse([]).rounds == 5)
        #expect(try HistoryArguments.parse(["--quick", "--repetitions", "6"]).rounds == 6)
        #expect(try HistoryArguments.parse(["--rounds", "7", "--quick"]).rounds == 7)
        #expect(try HistoryArguments.parse(["--first-parent", "main~3..main"]).firstParent)
    }

    /// A range over a merge: every commit of it, or with --first-parent the merge as one step.
    @Test func aRangeFollowsTheFirstParentWhenAsked() throws {
        guard let root = try Self.repository(commits: 1) else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let identity = ["-c", "user.name=test", "-c", "user.email=test@example.com"]
        let start = try Commits.resolve("HEAD", in: root)
        for step in [["checkout", "-q", "-b", "side"], identity + ["commit", "-q", "--allow-empty", "-m", "side"],
                     ["checkout", "-q", "-"], identity + ["commit", "-q", "--allow-empty", "-m", "main"],
                     identity + ["merge", "-q", "--no-ff", "--no-edit", "side"]] {
            guard Commits.git(step, in: root).status == 0 else { return }
        }
        let all = try Commits.range("\(start)..HEAD", in: root)
        let line = try Commits.range("\(start)..HEAD", firstParent: true, in: root)
        #expect(all.count == 3)
        #expect(line == [try Commits.resolve("HEAD~1", in: root), try Commits.resolve("HEAD", in: root)])
    }
}
