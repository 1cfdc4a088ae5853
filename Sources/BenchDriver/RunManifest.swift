import BenchResults

/// run.json as the drivers read and merge it (`RoundMerge`, `Shards`, `History`): the fields they
/// read or write, typed; every other field carried through as it was (`others`), so a merge keeps
/// what it does not know. A child of another commit writes its own run.json (a field more, a field
/// fewer than `RunMetadata`'s): the drivers hold it to no more than the fields they use.
struct RunManifest: Codable, Equatable {
    var runID: String?
    var startTime: String?
    var endTime: String?
    var load: Load?
    /// Lists merged item by item (an item once, in the order first met).
    var scenarioLoads: [CarriedJSON]?
    var coverage: [CarriedJSON]?
    /// How many runs a merge made this of (absent: one).
    var mergedRuns: Int?
    var repetitions: Int?
    var repetitionStartSeconds: CarriedJSON?
    /// How many shares `--merge` made this of.
    var shards: Int?
    /// The run of `history` that measured this commit (`History`).
    var historySession: String?
    /// Every other field: `source`, `machine`, `os`, …
    var others: [String: CarriedJSON] = [:]

    /// run.json's `load`: the children's start and end, and what a driver adds
    /// (`RunMetadata.Load`).
    struct Load: Codable, Equatable {
        var start: CarriedJSON?
        var end: CarriedJSON?
        var before: RunMetadata.MachineLoad?
        var ownProcesses: Int?
        var others: [String: CarriedJSON] = [:]

        private static let known: Set<String> = ["start", "end", "before", "own_processes"]

        init(start: CarriedJSON?, end: CarriedJSON?) {
            self.start = start
            self.end = end
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: FieldKey.self)
            start = try container.decodeIfPresent(CarriedJSON.self, forKey: "start")
            end = try container.decodeIfPresent(CarriedJSON.self, forKey: "end")
            before = try container.decodeIfPresent(CarriedJSON.self, forKey: "before").map { try $0.record(RunMetadata.MachineLoad.self) }
            ownProcesses = try container.decodeIfPresent(Int.self, forKey: "own_processes")
            others = try container.others(except: Self.known)
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: FieldKey.self)
            try container.encodeIfPresent(start, forKey: "start")
            try container.encodeIfPresent(end, forKey: "end")
            try container.encodeIfPresent(before.map(CarriedJSON.init(record:)), forKey: "before")
            try container.encodeIfPresent(ownProcesses, forKey: "own_processes")
            for (key, value) in others { try container.encode(value, forKey: FieldKey(key)) }
        }
    }

    private static let known: Set<String> = [
        "run_id", "start_time", "end_time", "load", "scenario_loads", "coverage", "merged_runs", "repetitions",
        "repetition_start_seconds", "shards", "history_session",
    ]

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        runID = try container.decodeIfPresent(String.self, forKey: "run_id")
        startTime = try container.decodeIfPresent(String.self, forKey: "start_time")
        endTime = try container.decodeIfPresent(String.self, forKey: "end_time")
        load = try container.decodeIfPresent(Load.self, forKey: "load")
        scenarioLoads = try container.decodeIfPresent([CarriedJSON].self, forKey: "scenario_loads")
        coverage = try container.decodeIfPresent([CarriedJSON].self, forKey: "coverage")
        mergedRuns = try container.decodeIfPresent(Int.self, forKey: "merged_runs")
        repetitions = try container.decodeIfPresent(Int.self, forKey: "repetitions")
        repetitionStartSeconds = try container.decodeIfPresent(CarriedJSON.self, forKey: "repetition_start_seconds")
        shards = try container.decodeIfPresent(Int.self, forKey: "shards")
        historySession = try container.decodeIfPresent(String.self, forKey: "history_session")
        others = try container.others(except: Self.known)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encodeIfPresent(runID, forKey: "run_id")
        try container.encodeIfPresent(startTime, forKey: "start_time")
        try container.encodeIfPresent(endTime, forKey: "end_time")
        try container.encodeIfPresent(load, forKey: "load")
        try container.encodeIfPresent(scenarioLoads, forKey: "scenario_loads")
        try container.encodeIfPresent(coverage, forKey: "coverage")
        try container.encodeIfPresent(mergedRuns, forKey: "merged_runs")
        try container.encodeIfPresent(repetitions, forKey: "repetitions")
        try container.encodeIfPresent(repetitionStartSeconds, forKey: "repetition_start_seconds")
        try container.encodeIfPresent(shards, forKey: "shards")
        try container.encodeIfPresent(historySession, forKey: "history_session")
        for (key, value) in others { try container.encode(value, forKey: FieldKey(key)) }
    }

    /// `source.commit`, or "".
    var commit: String { others["source"]?["commit"]?.stringValue ?? "" }

    /// The first of `load.before`'s averages (0 without one): how busy the machine was.
    var busiestBefore: Double { load?.before?.average.first ?? 0 }
}

/// A key of a JSON object, as written in the file (snake_case).
struct FieldKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init(stringLiteral value: String) { stringValue = value }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == FieldKey {
    /// Every member but `known`, as it was.
    func others(except known: Set<String>) throws -> [String: CarriedJSON] {
        var others: [String: CarriedJSON] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            others[key.stringValue] = try decode(CarriedJSON.self, forKey: key)
        }
        return others
    }
}
