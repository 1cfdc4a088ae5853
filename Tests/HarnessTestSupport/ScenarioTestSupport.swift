import Foundation
import Testing
import BenchScenarios

/// A valid scenario with replaceable parts, for the error tests.
package func scenarioJSON(
    viewport: String? = nil,
    layout: String = #"{"kind": "waterfall", "columns": 2, "itemSpacing": 8, "insets": {"left": 8, "right": 8}}"#,
    data: String = #"{"generate": {"heights": {"distribution": "uniform", "min": 50, "max": 150}, "seed": 3}}"#,
    workload: String = #"{"kind": "prepare"}"#,
    modes: String = #"["default"]"#,
    items: String? = "[100, 1000]",
    extra: String = ""
) -> String {
    var parts = [#""name": "test""#, #""description": "a test scenario""#]
    if let viewport { parts.append(#""viewport": "# + viewport) }
    parts.append(#""layout": "# + layout)
    parts.append(#""data": "# + data)
    parts.append(#""workload": "# + workload)
    parts.append(#""modes": "# + modes)
    if let items { parts.append(#""items": "# + items) }
    if !extra.isEmpty { parts.append(extra) }
    return "{\n  " + parts.joined(separator: ",\n  ") + "\n}\n"
}

package func parseScenario(_ text: String) throws(ScenarioError) -> Scenario {
    try Scenario(parsing: text, file: "test.json")
}

/// Parses `text`, expects a `ScenarioError` at `path` whose message contains `message`, and
/// returns it.
@discardableResult
package func expectScenarioError(
    _ text: String, path: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) -> ScenarioError? {
    do {
        let scenario = try parseScenario(text)
        Issue.record("expected an error at \(path), parsed \(scenario.name)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.file == "test.json", sourceLocation: sourceLocation)
        #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
        if !path.isEmpty {
            #expect(error.description == "test.json: \(path): \(error.message)", sourceLocation: sourceLocation)
        }
        return error
    }
}

/// FNV-1a over the bit patterns of the values, for pinned checksums.
package func checksum(_ values: [Double]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for v in values {
        var bits = v.bitPattern
        for _ in 0..<8 {
            hash = (hash ^ (bits & 0xFF)) &* 0x0000_0100_0000_01B3
            bits >>= 8
        }
    }
    return hash
}

/// The package's `Scenarios/` directory (from this file's place in the repository).
package func shippedScenariosDirectory() -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios").path
}
