import LayoutEngine

/// One constraint system of the benchmark, as the text format carries it.
struct BenchSystem {
    struct Constraint {
        var priority: Double
        var relation: ConstraintRelation
        var constant: Double
        var terms: [(variable: Int, coefficient: Double)]
    }

    var name: String
    var variableCount: Int
    /// The width variable (suggested per measurement) and the height variable (read).
    var widthVariable: Int
    var heightVariable: Int
    var constraints: [Constraint]
    /// The widths measured, in order.
    var widths: [Double]
}

/// The text format shared with the kiwi driver (scripts/kiwi-bench), one token stream:
///
///     # a comment line
///     system NAME VARIABLES WIDTH_VAR HEIGHT_VAR CONSTRAINTS WIDTHS
///     c PRIORITY REL CONSTANT TERMS VAR COEF VAR COEF ...     (CONSTRAINTS lines)
///     w WIDTH WIDTH ...                                         (WIDTHS numbers)
///
/// A constraint is `sum(COEF * VAR) + CONSTANT REL 0`, REL one of `==`, `>=`, `<=`, PRIORITY
/// in 1...1000 (1000 = required). Variables are numbered from 0. Numbers are written with
/// Swift's shortest round-trip form, so both sides read identical doubles.
enum SystemFile {
    /// One constraint's `c` line (the systems file and the two-pass feed file share it).
    static func line(_ c: BenchSystem.Constraint) -> String {
        let rel = c.relation == .equal ? "==" : c.relation == .greaterThanOrEqual ? ">=" : "<="
        var out = "c \(c.priority) \(rel) \(c.constant) \(c.terms.count)"
        for t in c.terms { out += " \(t.variable) \(t.coefficient)" }
        return out + "\n"
    }

    static func write(_ systems: [BenchSystem]) -> String {
        var out = "# layout-bench constraint systems: c PRIORITY REL CONSTANT TERMS (VAR COEF)*; w WIDTHS\n"
        for s in systems {
            out += "system \(s.name) \(s.variableCount) \(s.widthVariable) \(s.heightVariable) \(s.constraints.count) \(s.widths.count)\n"
            for c in s.constraints { out += line(c) }
            out += "w " + s.widths.map { "\($0)" }.joined(separator: " ") + "\n"
        }
        return out
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ text: String, file: String) throws -> [BenchSystem] {
        var tokens: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            tokens += line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        }
        var position = 0
        func next(_ what: String) throws -> Substring {
            guard position < tokens.count else { throw ParseError(description: "\(file): unexpected end, expected \(what)") }
            position += 1
            return tokens[position - 1]
        }
        func number(_ what: String) throws -> Double {
            let token = try next(what)
            guard let value = Double(token), value.isFinite else {
                throw ParseError(description: "\(file): \(what) is not a finite number: \(token)")
            }
            return value
        }
        func count(_ what: String, max: Int) throws -> Int {
            let token = try next(what)
            guard let value = Int(token), value >= 0, value <= max else {
                throw ParseError(description: "\(file): \(what) must be an integer in 0...\(max): \(token)")
            }
            return value
        }
        var systems: [BenchSystem] = []
        while position < tokens.count {
            guard try next("system") == "system" else { throw ParseError(description: "\(file): expected 'system'") }
            let name = String(try next("name"))
            let variables = try count("variable count of \(name)", max: 10_000)
            let width = try count("width variable of \(name)", max: variables - 1)
            let height = try count("height variable of \(name)", max: variables - 1)
            let constraintCount = try count("constraint count of \(name)", max: 100_000)
            let widthCount = try count("width count of \(name)", max: 1_000_000)
            var constraints: [BenchSystem.Constraint] = []
            for index in 0..<constraintCount {
                let what = "constraint \(index) of \(name)"
                guard try next(what) == "c" else { throw ParseError(description: "\(file): \(what) does not start with 'c'") }
                let priority = try number("priority of \(what)")
                let relation: ConstraintRelation
                switch try next("relation of \(what)") {
                case "==": relation = .equal
                case ">=": relation = .greaterThanOrEqual
                case "<=": relation = .lessThanOrEqual
                case let other: throw ParseError(description: "\(file): relation of \(what) is \(other), expected ==, >= or <=")
                }
                let constant = try number("constant of \(what)")
                let termCount = try count("term count of \(what)", max: variables)
                var terms: [(Int, Double)] = []
                for _ in 0..<termCount {
                    let v = try count("variable of \(what)", max: variables - 1)
                    terms.append((v, try number("coefficient of \(what)")))
                }
                constraints.append(.init(priority: priority, relation: relation, constant: constant, terms: terms))
            }
            guard try next("w") == "w" else { throw ParseError(description: "\(file): expected 'w' after the constraints of \(name)") }
            var widths: [Double] = []
            for _ in 0..<widthCount { widths.append(try number("width of \(name)")) }
            systems.append(BenchSystem(name: name, variableCount: variables, widthVariable: width, heightVariable: height,
                                       constraints: constraints, widths: widths))
        }
        return systems
    }
}
