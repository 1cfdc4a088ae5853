import BenchPlatform
import BenchScenarios
import BenchWorkloads
import LayoutEngine

/// The solver work of `cell-measure`'s `edit-width` on a scenario, written down so that kiwi can
/// do the same (scripts/kiwi-bench, issue 32 item 5): the templates' constraint systems, and per
/// measurement of the scenario's trace the label values each pass sets, the label widths pass 1
/// gives and the fitting height. Text is measured when the file is written, not when it is
/// replayed: replaying it times the solve alone.
///
///     # a comment line
///     template NAME VARIABLES CONSTRAINTS LABELS          (variable 0 is the width, 1 the height)
///     c PRIORITY REL CONSTANT TERMS VAR COEF ...          (CONSTRAINTS lines: TemplateSystem's rows)
///     l WIDTH_VAR ROW ROW ROW ROW                         (LABELS lines: the label's width variable and
///                                                          its rows width >=, width <=, height >=, height <=)
///     m TEMPLATE WIDTH HEIGHT P1... W... P2...            (a measurement: 4 pass-1 values per label, the
///                                                          label widths after pass 1, 4 pass-2 values per label)
///
/// A label row is `w + CONSTANT REL 0` with the constant the label's value negated; the file
/// holds the rows at value 0 and the replay changes them. A measurement replays as the measurer
/// solves: every label value that differs from the one the row holds is set (pass 1), the width
/// is set, the label widths are read, the changed pass-2 values are set, the height is read.
struct FeedTemplate {
    var name: String
    var variableCount: Int
    var constraints: [BenchSystem.Constraint]
    var labels: [(widthVariable: Int, rows: [Int])]
}

struct FeedMeasurement {
    var template: Int
    var width: Double
    var height: Double
    var passOne: [Double]
    var labelWidths: [Double]
    var passTwo: [Double]
}

struct TwoPassFeed {
    var templates: [FeedTemplate] = []
    var measurements: [FeedMeasurement] = []

    /// The feed of `cell-measure` on the scenario at `path` with `items` rows: its trace, measured
    /// by `edit-width` (an uncached text measurer when a label names a font).
    static func record(scenarioPath path: String, items: Int) throws -> TwoPassFeed {
        let scenario = try Scenario.load(path: path)
        let workload = try CellMeasureWorkload(spec: scenario.workload.reader())
        let generated = try scenario.makeItems(items: items)
        guard let rows = generated.templated, let texts = generated.texts else {
            fail("\(path): not a scenario of constraint-template rows")
        }
        let text = try scenario.textMeasurer(for: rows.templates, caching: false)
        var feed = TwoPassFeed()
        var measurers: [TemplateMeasurer] = []
        for template in rows.templates {
            let measurer = try TemplateMeasurer(template: template, strategy: .editWidth, text: text)
            measurers.append(measurer)
            let system = measurer.system
            feed.templates.append(FeedTemplate(
                name: template.name, variableCount: system.variableCount,
                constraints: system.rows.map { row in
                    BenchSystem.Constraint(priority: row.priority, relation: row.relation, constant: row.constant,
                                           terms: row.terms.map { ($0.variable.index, $0.coefficient) })
                },
                labels: system.labels.map { ($0.widthVariable, [$0.widthMin, $0.widthMax, $0.heightMin, $0.heightMax]) }))
        }
        // cell-measure's trace (rotateEvery: its default, every row once per width).
        let rowWidths = workload.rowWidths(scenario)
        let n = rows.kinds.count
        let rotate = workload.rotateEvery ?? max(1, n)
        for k in 0..<(max(1, n) * rowWidths.count) {
            let row = k % n
            let kind = rows.kinds[row]
            let width = rowWidths[(k / rotate) % rowWidths.count] - rows.templates[kind].accessoryWidth
            let passes = try measurers[kind].recordedMeasurement(text: Array(texts[row]), detail: Array(rows.details[row]), width: width)
            feed.measurements.append(FeedMeasurement(template: kind, width: width, height: passes.height, passOne: passes.passOne,
                                                     labelWidths: passes.labelWidths, passTwo: passes.passTwo))
        }
        return feed
    }

    func write() -> String {
        var out = "# layout-bench two-pass feed (solver-bench feed): template/c/l lines, then m TEMPLATE WIDTH HEIGHT P1 W P2\n"
        for t in templates {
            out += "template \(t.name) \(t.variableCount) \(t.constraints.count) \(t.labels.count)\n"
            for c in t.constraints { out += SystemFile.line(c) }
            for l in t.labels { out += "l \(l.widthVariable) " + l.rows.map(String.init).joined(separator: " ") + "\n" }
        }
        for m in measurements {
            out += "m \(m.template) \(m.width) \(m.height) " + (m.passOne + m.labelWidths + m.passTwo).map { "\($0)" }.joined(separator: " ") + "\n"
        }
        return out
    }

    static func read(_ text: String, file: String) throws -> TwoPassFeed {
        var tokens: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            tokens += line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        }
        var position = 0
        func next(_ what: String) throws -> Substring {
            guard position < tokens.count else { throw SystemFile.ParseError(description: "\(file): unexpected end, expected \(what)") }
            position += 1
            return tokens[position - 1]
        }
        func number(_ what: String) throws -> Double {
            let token = try next(what)
            guard let value = Double(token), value.isFinite else { throw SystemFile.ParseError(description: "\(file): \(what) is not a finite number: \(token)") }
            return value
        }
        func count(_ what: String, max: Int) throws -> Int {
            let token = try next(what)
            guard let value = Int(token), value >= 0, value <= max else {
                throw SystemFile.ParseError(description: "\(file): \(what) must be an integer in 0...\(max): \(token)")
            }
            return value
        }
        var feed = TwoPassFeed()
        while position < tokens.count {
            let word = try next("template or m")
            if word == "template" {
                let name = String(try next("name"))
                let variables = try count("variable count of \(name)", max: 10_000)
                guard variables >= 2 else { throw SystemFile.ParseError(description: "\(file): \(name) has fewer than 2 variables") }
                let constraintCount = try count("constraint count of \(name)", max: 100_000)
                let labelCount = try count("label count of \(name)", max: 10_000)
                var constraints: [BenchSystem.Constraint] = []
                for index in 0..<constraintCount {
                    let what = "constraint \(index) of \(name)"
                    guard try next(what) == "c" else { throw SystemFile.ParseError(description: "\(file): \(what) does not start with 'c'") }
                    let priority = try number("priority of \(what)")
                    let relation: ConstraintRelation
                    switch try next("relation of \(what)") {
                    case "==": relation = .equal
                    case ">=": relation = .greaterThanOrEqual
                    case "<=": relation = .lessThanOrEqual
                    case let other: throw SystemFile.ParseError(description: "\(file): relation of \(what) is \(other)")
                    }
                    let constant = try number("constant of \(what)")
                    var terms: [(variable: Int, coefficient: Double)] = []
                    for _ in 0..<(try count("term count of \(what)", max: variables)) {
                        let v = try count("variable of \(what)", max: variables - 1)
                        terms.append((v, try number("coefficient of \(what)")))
                    }
                    constraints.append(.init(priority: priority, relation: relation, constant: constant, terms: terms))
                }
                var labels: [(widthVariable: Int, rows: [Int])] = []
                for index in 0..<labelCount {
                    guard try next("l") == "l" else { throw SystemFile.ParseError(description: "\(file): label \(index) of \(name) does not start with 'l'") }
                    let widthVariable = try count("width variable of label \(index) of \(name)", max: variables - 1)
                    var rows: [Int] = []
                    for _ in 0..<4 { rows.append(try count("row of label \(index) of \(name)", max: max(0, constraintCount - 1))) }
                    labels.append((widthVariable, rows))
                }
                feed.templates.append(FeedTemplate(name: name, variableCount: variables, constraints: constraints, labels: labels))
            } else if word == "m" {
                let what = "measurement \(feed.measurements.count)"
                let template = try count("template of \(what)", max: feed.templates.count - 1)
                let width = try number("width of \(what)"), height = try number("height of \(what)")
                let labels = feed.templates[template].labels.count
                var values: [Double] = []
                for _ in 0..<(9 * labels) { values.append(try number("value of \(what)")) }
                feed.measurements.append(FeedMeasurement(template: template, width: width, height: height, passOne: Array(values[0..<(4 * labels)]),
                                                         labelWidths: Array(values[(4 * labels)..<(5 * labels)]),
                                                         passTwo: Array(values[(5 * labels)...])))
            } else {
                throw SystemFile.ParseError(description: "\(file): expected 'template' or 'm', got \(word)")
            }
        }
        return feed
    }
}

/// One template's solver replaying the feed's measurements: the label rows' constants changed
/// one at a time (`updateConstant`, `suggestValue`: a dual simplex each, as `edit-width`) or as
/// one batch per pass (`stageConstant`, `stageValue`, `reoptimize`: as `edit-width-batched`).
struct FeedReplayer {
    var solver = ConstraintSolver()
    var handles: [ConstraintHandle] = []
    /// The value each label row holds (4 per label).
    var current: [Double]
    let rows: [Int]
    let widthVariables: [SolverVariable]
    let batched: Bool
    /// Per-measurement scratch: the label widths read after pass 1.
    var labelWidths: [Double]
    /// Calls that change a constant or the width, and re-optimisations, over all measurements.
    var updates = 0
    var solves = 0

    init(_ template: FeedTemplate, batched: Bool) throws(ConstraintSolverError) {
        var variables: [SolverVariable] = []
        for _ in 0..<template.variableCount { variables.append(solver.makeVariable()) }
        for c in template.constraints {
            handles.append(try solver.addConstraint(c.terms.map { LinearTerm(variables[$0.variable], $0.coefficient) },
                                                    constant: c.constant, relation: c.relation, priority: c.priority))
        }
        try solver.addEditVariable(variables[0], priority: 1000)
        rows = template.labels.flatMap(\.rows)
        widthVariables = template.labels.map { variables[$0.widthVariable] }
        current = Array(repeating: 0, count: rows.count)
        labelWidths = Array(repeating: 0, count: template.labels.count)
        self.batched = batched
    }

    @inline(__always)
    mutating func set(_ slot: Int, _ value: Double) throws(ConstraintSolverError) {
        guard current[slot] != value else { return }
        if batched {
            try solver.stageConstant(handles[rows[slot]], -value)
        } else {
            try solver.updateConstant(handles[rows[slot]], -value)
            solves += 1
        }
        current[slot] = value
        updates += 1
    }

    /// Replays one measurement; the label widths land in `labelWidths`.
    mutating func measure(_ m: FeedMeasurement) throws(ConstraintSolverError) -> Double {
        for s in 0..<current.count { try set(s, m.passOne[s]) }
        let width = SolverVariable(index: 0)
        if batched {
            try solver.stageValue(width, m.width)
            try solver.reoptimize()
        } else {
            try solver.suggestValue(width, m.width)
        }
        updates += 1
        solves += 1
        for l in 0..<widthVariables.count { labelWidths[l] = solver.value(of: widthVariables[l]) }
        for s in 0..<current.count { try set(s, m.passTwo[s]) }
        if batched && solver.hasStagedChanges {
            try solver.reoptimize()
            solves += 1
        }
        return solver.value(of: SolverVariable(index: 1))
    }
}

func loadFeed(_ path: String) -> TwoPassFeed {
    let bytes = readFile(path)
    do { return try TwoPassFeed.read(String(decoding: bytes, as: UTF8.self), file: path) } catch { fail("\(error)") }
}

func feedReplayers(_ feed: TwoPassFeed, batched: Bool) -> [FeedReplayer] {
    feed.templates.map { template in
        do { return try FeedReplayer(template, batched: batched) } catch { fail("\(template.name): \(error)") }
    }
}
