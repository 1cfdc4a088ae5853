import BenchResults

/// A strict reader of one JSON object that knows its JSON path.
///
/// Every accessor marks its key as known. `finish()` then fails on the first member whose key no
/// accessor asked for (`unknown key 'colums'; expected one of: ...`), so a typo is never
/// silently ignored. Keys that are only allowed in some cases can be declared with
/// `allow(_:)` without reading them, or read and then rejected with `error(at:_:)`.
///
///     let layout = try root.object("layout")
///     let columns = try layout.optionalInt("columns", default: 2, .atLeast(1))
///     try layout.finish()
package final class JSONReader {
    package let file: String
    package let path: String
    package let members: [JSONMember]
    /// The keys asked for so far, in order (for the "expected one of" list).
    package private(set) var knownKeys: [String] = []

    package init(members: [JSONMember], file: String, path: String) {
        self.members = members
        self.file = file
        self.path = path
    }

    /// A reader for a whole document, which must be an object.
    package convenience init(document: JSONValue, file: String, path: String = "") throws(ScenarioError) {
        guard case .object(let members) = document else {
            let what: String
            switch document {
            case .array, .object: what = document.typeName
            default: what = document.summary
            }
            throw ScenarioError(
                file: file, path: path,
                message: path.isEmpty ? "expected a JSON object at the top level, got \(what)" : "expected an object, got \(what)")
        }
        self.init(members: members, file: file, path: path)
    }

    // MARK: Keys

    /// Declares `keys` as known without reading them.
    package func allow(_ keys: String...) {
        for key in keys where !knownKeys.contains(key) { knownKeys.append(key) }
    }

    /// Whether the object has the key (and declares it known).
    package func has(_ key: String) -> Bool {
        allow(key)
        return members.contains { $0.key == key }
    }

    /// The member's node, or nil when it is absent. A JSON `null` counts as present.
    package func optional(_ key: String) -> JSONNode? {
        allow(key)
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return JSONNode(member.value, file: file, path: JSONPath.appending(path, key: key))
    }

    /// The member's node; an error names the missing key.
    package func require(_ key: String) throws(ScenarioError) -> JSONNode {
        guard let node = optional(key) else {
            throw ScenarioError(file: file, path: JSONPath.appending(path, key: key), message: "missing required key '\(key)'")
        }
        return node
    }

    /// The JSON path of a member (present or not).
    package func path(of key: String) -> String { JSONPath.appending(path, key: key) }

    /// An error at a member of this object.
    package func error(at key: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path(of: key), message: message)
    }

    /// An error at this object itself.
    package func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path, message: message)
    }

    /// Fails on the first member that no accessor asked for.
    package func finish() throws(ScenarioError) {
        for member in members where !knownKeys.contains(member.key) {
            let expected = knownKeys.isEmpty ? "this object takes no keys" : "expected one of: " + knownKeys.joined(separator: ", ")
            var message = "unknown key '\(member.key)'; \(expected)"
            if let suggestion = Self.closest(to: member.key, in: knownKeys) { message += " (did you mean '\(suggestion)'?)" }
            throw ScenarioError(file: file, path: path(of: member.key), message: message)
        }
    }

    // MARK: Typed accessors

    package func requireString(_ key: String) throws(ScenarioError) -> String { try require(key).string() }

    package func requireNonEmptyString(_ key: String) throws(ScenarioError) -> String { try require(key).nonEmptyString() }

    package func optionalString(_ key: String, default value: String) throws(ScenarioError) -> String {
        try optional(key)?.string() ?? value
    }

    package func optionalBool(_ key: String, default value: Bool) throws(ScenarioError) -> Bool {
        try optional(key)?.bool() ?? value
    }

    package func requireDouble(_ key: String, _ bound: NumberBound = .any) throws(ScenarioError) -> Double {
        try require(key).double(bound)
    }

    package func optionalDouble(_ key: String, default value: Double, _ bound: NumberBound = .any) throws(ScenarioError) -> Double {
        try optional(key)?.double(bound) ?? value
    }

    package func optionalDouble(_ key: String, _ bound: NumberBound = .any) throws(ScenarioError) -> Double? {
        try optional(key)?.double(bound)
    }

    package func requireInt(_ key: String, _ bound: NumberBound = .any) throws(ScenarioError) -> Int {
        try require(key).int(bound)
    }

    package func requireInt(_ key: String, min: Int) throws(ScenarioError) -> Int {
        try require(key).int(.atLeast(Double(min)))
    }

    package func optionalInt(_ key: String, default value: Int, _ bound: NumberBound = .any) throws(ScenarioError) -> Int {
        try optional(key)?.int(bound) ?? value
    }

    package func optionalInt(_ key: String, _ bound: NumberBound = .any) throws(ScenarioError) -> Int? {
        try optional(key)?.int(bound)
    }

    package func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: String, default value: E) throws(ScenarioError) -> E
    where E.RawValue == String {
        try optional(key)?.enumCase(E.self) ?? value
    }

    package func object(_ key: String) throws(ScenarioError) -> JSONReader { try require(key).object() }

    package func optionalObject(_ key: String) throws(ScenarioError) -> JSONReader? { try optional(key)?.object() }

    package func array(_ key: String) throws(ScenarioError) -> [JSONNode] { try require(key).array() }

    package func optionalArray(_ key: String) throws(ScenarioError) -> [JSONNode]? { try optional(key)?.array() }

    /// A workload's `operations` list (or any list of enum names): each name once, at least one;
    /// `allCases` in declaration order when the key is absent.
    package func operationList<E: RawRepresentable & CaseIterable>(
        _ key: String = "operations", of type: E.Type
    ) throws(ScenarioError) -> [E] where E.RawValue == String, E: Equatable {
        guard let nodes = try optionalArray(key) else { return Array(E.allCases) }
        var listed: [E] = []
        for node in nodes {
            let value = try node.enumCase(E.self)
            if listed.contains(value) { throw node.error("\(JSONValue.quoted(value.rawValue)) is listed twice") }
            listed.append(value)
        }
        if listed.isEmpty { throw error(at: key, "expected at least one operation") }
        return listed
    }

    // MARK: Suggestions

    /// The known key nearest to a misspelt one (edit distance at most 2), if any.
    static func closest(to key: String, in candidates: [String]) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let d = editDistance(Array(key.lowercased().utf8), Array(candidate.lowercased().utf8))
            if d <= 2, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
