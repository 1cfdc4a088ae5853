import Foundation
import BenchPlatform

/// One row of `profiles.csv.gz`, written by `run --instructions`: for one scenario × mode × items
/// × operation, a function's instructions per operation, its own (`self`) and with what it called
/// (`inclusive`). Only the most expensive functions of each operation are kept. `compare` diffs
/// two runs' rows to name where a regression's instructions went.
package struct FunctionProfileRow: Sendable, Equatable {
    package var scenario: String
    package var mode: String
    package var items: Int
    package var operation: String
    /// Demangled (`swift demangle --simplified`) where the toolchain is on PATH.
    package var function: String
    package var selfInstructions: Double
    package var inclusiveInstructions: Double

    package init(scenario: String, mode: String, items: Int, operation: String, function: String,
                selfInstructions: Double, inclusiveInstructions: Double) {
        self.scenario = scenario
        self.mode = mode
        self.items = items
        self.operation = operation
        self.function = function
        self.selfInstructions = selfInstructions
        self.inclusiveInstructions = inclusiveInstructions
    }

    package static let fileName = "profiles.csv.gz"
    package static let header = ["scenario", "mode", "items", "operation", "function", "self", "inclusive"]

    package static func csv(_ rows: [FunctionProfileRow]) -> String {
        var writer = CSVWriter(header: header)
        for row in rows {
            writer.append([row.scenario, row.mode, String(row.items), row.operation, row.function,
                           CSVWriter.format(row.selfInstructions), CSVWriter.format(row.inclusiveInstructions)])
        }
        return writer.text
    }

    /// The rows of a profiles file (`profiles.csv.gz`), read as a stream (`ResultsFile`).
    static func load(_ path: String, limit: Int = ResultsFile.maxBytes) throws(CompareError) -> [FunctionProfileRow] {
        try read(CSVRecordStream(source: FileByteSource(path: path, limit: limit), file: path))
    }

    /// Rows of profiles text (`file` names it in errors).
    package static func parse(_ text: String, file: String) throws(CompareError) -> [FunctionProfileRow] {
        try read(CSVRecordStream(source: MemoryByteSource(bytes: Array(text.utf8)), file: file))
    }

    static func read<Source>(_ records: CSVRecordStream<Source>) throws(CompareError) -> [FunctionProfileRow] {
        let file = records.file
        guard try records.next(), records.strings == header else {
            throw CompareError(file: file, message: "not a profiles file: expected the header \(header.joined(separator: ","))")
        }
        var rows: [FunctionProfileRow] = []
        while try records.next() {
            guard records.count == header.count else {
                throw records.error("expected \(header.count) fields (\(header.joined(separator: ","))), got \(records.count)")
            }
            guard let items = try records.withField(2, { ResultsNumber.integer($0) }), items >= 0 else {
                throw records.error("items: expected a count >= 0, got '\(records.string(2))'")
            }
            // Instructions per operation: numbers of the harness's grammar, never negative.
            func cost(_ index: Int) throws(CompareError) -> Double {
                guard let value = try records.withField(index, { ResultsNumber.decimal($0) }) else {
                    throw records.error("\(header[index]): expected \(ResultsValue.expectedNumber), got '\(records.string(index))'")
                }
                if let problem = ResultsValue.problem(value, metric: Metric.instructions.name) { throw records.error("\(header[index]): \(problem)") }
                return value
            }
            rows.append(FunctionProfileRow(scenario: records.string(0), mode: records.string(1), items: items, operation: records.string(3),
                                           function: records.string(4), selfInstructions: try cost(5), inclusiveInstructions: try cost(6)))
        }
        return rows
    }

    /// The rows with Swift names demangled in one call of `swift demangle --simplified` (names stay
    /// as they are without the toolchain, or when it fails).
    package static func demangled(_ rows: [FunctionProfileRow]) -> [FunctionProfileRow] {
        let names = Array(Set(rows.map(\.function))).sorted()
        guard let swift = findOnPath("swift"), names.contains(where: { $0.hasPrefix("$s") || $0.hasPrefix("_$s") }) else { return rows }
        let demangling = TemporaryFiles.withToolEnvironment { environment in
            try? runChildProcess(executable: swift, arguments: ["demangle", "--simplified"], environment: environment,
                                        input: Data((names.joined(separator: "\n") + "\n").utf8), passesErrorThrough: true)
        }
        guard let result = demangling, result.status == 0 else { return rows }
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard lines.count == names.count else { return rows }
        var readable: [String: String] = [:]
        for (name, line) in zip(names, lines) { readable[name] = line.isEmpty ? name : line }
        return rows.map { row in
            var row = row
            row.function = readable[row.function] ?? row.function
            return row
        }
    }
}
