import BenchResults

/// The `workload` object, kept raw: its `kind` is read here, everything else is validated by
/// the harness for that kind, with `reader()` (path prefix `workload`, `kind` already known):
///
///     let r = scenario.workload.reader()
///     let batch = try r.requireInt("batch", min: 1)
///     try r.finish()   // unknown workload keys are errors too
package struct ScenarioWorkload: Hashable, Sendable, Codable {
    /// `workload.kind` (a non-empty string; which kinds exist is the harness's business).
    package var kind: String
    /// The whole `workload` object as written.
    package var value: JSONValue
    package var file: String
    package static let path = "workload"

    /// A strict reader over the workload object; `kind` is already declared.
    package func reader() -> JSONReader {
        guard case .object(let members) = value else { preconditionFailure("workload is validated as an object") }
        let r = JSONReader(members: members, file: file, path: Self.path)
        r.allow("kind")
        return r
    }

    /// An error at `workload.<key>` (or at `workload` itself for nil).
    package func error(at key: String? = nil, _ message: String) -> ScenarioError {
        ScenarioError(file: file, path: key.map { JSONPath.appending(Self.path, key: $0) } ?? Self.path, message: message)
    }

    static func parse(_ node: JSONNode) throws(ScenarioError) -> ScenarioWorkload {
        let r = try node.object()
        let kind = try r.requireNonEmptyString("kind")
        return ScenarioWorkload(kind: kind, value: node.value, file: node.file)
    }
}
