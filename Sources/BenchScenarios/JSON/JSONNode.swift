import BenchResults

/// A JSON value together with where it sits (file and JSON path), so that every conversion can
/// fail with an error that names the place. `JSONReader` hands these out for object members;
/// arrays give one node per element.
package struct JSONNode: Sendable {
    package var value: JSONValue
    package var file: String
    package var path: String

    package init(_ value: JSONValue, file: String, path: String) {
        self.value = value
        self.file = file
        self.path = path
    }

    /// An error at this node.
    package func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path, message: message)
    }

    private func typeError(_ expected: String) -> ScenarioError {
        switch value {
        case .array, .object: return error("expected \(expected), got \(value.typeName)")
        default: return error("expected \(expected), got \(value.summary)")
        }
    }

    // MARK: Scalars

    package func string() throws(ScenarioError) -> String {
        guard case .string(let s) = value else { throw typeError("a string") }
        return s
    }

    /// A string that is not empty (and not only spaces).
    package func nonEmptyString() throws(ScenarioError) -> String {
        let s = try string()
        guard s.contains(where: { !$0.isWhitespace }) else { throw error("expected a non-empty string") }
        return s
    }

    package func bool() throws(ScenarioError) -> Bool {
        guard case .bool(let b) = value else { throw typeError("true or false") }
        return b
    }

    /// A finite number within the bound. `1e999` (infinite) is rejected here.
    package func double(_ bound: NumberBound = .any) throws(ScenarioError) -> Double {
        guard case .number(let n) = value else { throw typeError(bound.expected(integer: false)) }
        guard n.value.isFinite else {
            throw error("expected \(bound.expected(integer: false)), got \(n.literal), which is too large to be a finite number")
        }
        guard bound.admits(n.value) else { throw error("expected \(bound.expected(integer: false)), got \(n.literal)") }
        return n.value
    }

    /// An integer written as one (`3`, not `3.0` or `3e0`) within the bound.
    package func int(_ bound: NumberBound = .any) throws(ScenarioError) -> Int {
        guard case .number(let n) = value else { throw typeError(bound.expected(integer: true)) }
        guard n.isIntegerLiteral else {
            if n.value.isFinite && n.value.rounded() == n.value {
                throw error("expected \(bound.expected(integer: true)) written without a fraction or exponent, got \(n.literal)")
            }
            throw error("expected \(bound.expected(integer: true)), got \(n.literal)")
        }
        guard let i = n.integer else { throw error("expected \(bound.expected(integer: true)), got \(n.literal), which is out of range") }
        guard bound.admits(Double(i)) else { throw error("expected \(bound.expected(integer: true)), got \(n.literal)") }
        return i
    }

    /// One of `allowed`; the error lists them.
    package func oneOf(_ allowed: [String]) throws(ScenarioError) -> String {
        let expected = "one of " + allowed.map { JSONValue.quoted($0) }.joined(separator: ", ")
        guard case .string(let s) = value else { throw typeError(expected) }
        guard allowed.contains(s) else { throw error("unknown value \(JSONValue.quoted(s)); expected \(expected)") }
        return s
    }

    /// A case of a string enum, by raw value; the error lists every case.
    package func enumCase<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(ScenarioError) -> E where E.RawValue == String {
        let raw = try oneOf(E.allCases.map(\.rawValue))
        return E(rawValue: raw)!
    }

    // MARK: Containers

    package func array() throws(ScenarioError) -> [JSONNode] {
        guard case .array(let elements) = value else { throw typeError("an array") }
        var nodes: [JSONNode] = []
        nodes.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            nodes.append(JSONNode(element, file: file, path: JSONPath.appending(path, index: i)))
        }
        return nodes
    }

    /// An array with at least `minCount` elements.
    package func array(minCount: Int) throws(ScenarioError) -> [JSONNode] {
        let nodes = try array()
        guard nodes.count >= minCount else {
            throw error(minCount == 1 ? "expected a non-empty array" : "expected an array of at least \(minCount) elements, got \(nodes.count)")
        }
        return nodes
    }

    package func object() throws(ScenarioError) -> JSONReader {
        guard case .object(let members) = value else { throw typeError("an object") }
        return JSONReader(members: members, file: file, path: path)
    }
}

/// The range a number must lie in. `expected(integer:)` phrases it for error messages.
package enum NumberBound: Sendable, Hashable {
    case any
    /// `>= minimum`
    case atLeast(Double)
    /// `> minimum`
    case greaterThan(Double)
    /// `minimum ... maximum`
    case between(Double, Double)
    /// `> minimum` and `<= maximum`
    case above(Double, atMost: Double)

    /// Sizes, spacings, insets: finite, not negative, at most `ScenarioLimits.maxSize`.
    package static let size = NumberBound.between(0, ScenarioLimits.maxSize)
    /// Viewport sizes, line heights: positive, at most `ScenarioLimits.maxSize`.
    package static let positiveSize = NumberBound.above(0, atMost: ScenarioLimits.maxSize)
    /// Finite and positive.
    package static let positive = NumberBound.greaterThan(0)

    package func admits(_ v: Double) -> Bool {
        switch self {
        case .any: return true
        case .atLeast(let m): return v >= m
        case .greaterThan(let m): return v > m
        case .between(let lo, let hi): return v >= lo && v <= hi
        case .above(let lo, let hi): return v > lo && v <= hi
        }
    }

    package func expected(integer: Bool) -> String {
        let noun = integer ? "an integer" : "a number"
        func f(_ v: Double) -> String { v.rounded() == v && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        switch self {
        case .any: return noun
        case .atLeast(let m): return "\(noun) >= \(f(m))"
        case .greaterThan(let m): return "\(noun) > \(f(m))"
        case .between(let lo, let hi): return "\(noun) from \(f(lo)) to \(f(hi))"
        case .above(let lo, let hi): return "\(noun) > \(f(lo)) and <= \(f(hi))"
        }
    }
}
