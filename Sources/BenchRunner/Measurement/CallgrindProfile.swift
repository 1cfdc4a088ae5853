/// The instructions of one callgrind dump by function: self (the function's own instructions) and
/// inclusive (with everything it called), read from the `fn=`, `cfn=` and `calls=` records of
/// callgrind's output format 1, names decompressed (`fn=(12) name` defines id 12, `fn=(12)`
/// refers to it). This is what `compare` diffs to name where a regression's instructions went.
package struct CallgrindProfile: Sendable, Equatable {
    package struct Cost: Sendable, Equatable {
        package var selfCost: Double
        package var inclusive: Double
    }

    /// Function name (as callgrind writes it: mangled for Swift) → its costs.
    package var functions: [String: Cost]

    package init(functions: [String: Cost] = [:]) { self.functions = functions }

    /// Parses the text of one dump (the `Ir` event; other events are ignored).
    package static func parse(_ text: String) -> CallgrindProfile {
        var names: [String: String] = [:]  // "(12)" → name
        var irIndex = 0
        var current: String? = nil
        var afterCalls = false
        var functions: [String: Cost] = [:]

        func resolve(_ value: Substring) -> String {
            // "(12) name", "(12)" or a plain name.
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return String(value) }
            let id = String(value[...close])
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { names[id] = String(rest) }
            return names[id] ?? id
        }
        func ir(_ line: Substring) -> Double {
            // A cost line: position(s), then the events in order; omitted trailing counts are 0.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let index = 1 + irIndex
            return index < fields.count ? Double(fields[index]) ?? 0 : 0
        }

        for line in text.split(whereSeparator: \.isNewline) {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                guard let function = current else { continue }
                let cost = ir(line)
                if afterCalls {
                    functions[function, default: Cost(selfCost: 0, inclusive: 0)].inclusive += cost
                    afterCalls = false
                } else {
                    functions[function, default: Cost(selfCost: 0, inclusive: 0)].selfCost += cost
                    functions[function, default: Cost(selfCost: 0, inclusive: 0)].inclusive += cost
                }
            } else if line.hasPrefix("fn=") {
                current = resolve(line.dropFirst(3))
                afterCalls = false
            } else if line.hasPrefix("cfn=") {
                _ = resolve(line.dropFirst(4))  // defines the name for later references
            } else if line.hasPrefix("calls=") {
                afterCalls = true
            } else if line.hasPrefix("events:") {
                let events = line.dropFirst("events:".count).split(separator: " ", omittingEmptySubsequences: true)
                irIndex = events.firstIndex(of: "Ir") ?? 0
            }
        }
        return CallgrindProfile(functions: functions)
    }

    /// Adds `other`'s costs to these.
    package mutating func add(_ other: CallgrindProfile) {
        for (name, cost) in other.functions {
            functions[name, default: Cost(selfCost: 0, inclusive: 0)].selfCost += cost.selfCost
            functions[name, default: Cost(selfCost: 0, inclusive: 0)].inclusive += cost.inclusive
        }
    }

    /// Every cost divided by `count` (per operation).
    package func scaled(by count: Double) -> CallgrindProfile {
        CallgrindProfile(functions: functions.mapValues { Cost(selfCost: $0.selfCost / count, inclusive: $0.inclusive / count) })
    }

    /// The `limit` most expensive functions by self cost and by inclusive cost, together: what a
    /// results directory keeps, so that it stays small.
    package func top(_ limit: Int) -> CallgrindProfile {
        let bySelf = functions.sorted { ($0.value.selfCost, $0.key) > ($1.value.selfCost, $1.key) }.prefix(limit)
        let byInclusive = functions.sorted { ($0.value.inclusive, $0.key) > ($1.value.inclusive, $1.key) }.prefix(limit)
        var kept: [String: Cost] = [:]
        for (name, cost) in bySelf { kept[name] = cost }
        for (name, cost) in byInclusive { kept[name] = cost }
        return CallgrindProfile(functions: kept)
    }
}
