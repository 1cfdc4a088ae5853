import CJemalloc
import BenchPlatform
import BenchResults
import BenchScenarios
import BenchWorkloads
import BenchRunner
import BenchStatistics
import Foundation
import LayoutEngine
import TextShaping

/// solver-bench: the Swift half of scripts/kiwi-bench. It writes the benchmark's constraint
/// systems and times the engine's `ConstraintSolver` on them the way the kiwi driver times kiwi:
///
///     solver-bench generate ROWS [SEED]             systems in the text format (SystemFile) on stdout
///     solver-bench time FILE edit|add-remove REPS   ns per measurement over REPS passes of every width
///     solver-bench heights FILE edit|add-remove     `name width height` per measurement
///     solver-bench allocations FILE                 bytes allocated by warm measurements (jemalloc); 0 or exit 1
///     solver-bench feed SCENARIO ITEMS              cell-measure's edit-width solver work on SCENARIO (TwoPassFeed) on stdout
///     solver-bench feed-time FILE per-constant|batched REPS   ns per measurement replaying the feed
///     solver-bench feed-heights FILE per-constant|batched     `index height width...` per measurement, checked against the file
///     solver-bench feed-allocations FILE            bytes allocated by warm feed replays (jemalloc); 0 or exit 1
///     solver-bench measure FILE                     fitting heights of templated rows in every mode (JSON lines)
///     solver-bench text FILE                        label text measured on real fonts (JSON lines; Tests/Oracle)
///     solver-bench words [--seed S]                 generated paragraphs in every language (JSON lines; Tests/Oracle)
///
/// `edit`: one solver per system with every constraint and the width as an edit variable at
/// priority 999 (kiwi refuses required edit variables; 999 is its `strong`); a measurement
/// suggests the width and reads the height. `add-remove`: FDTemplateLayoutCell's way; a
/// measurement adds a required `width == W`, reads the height and removes it.

func fail(_ message: String) -> Never {
    let line = "solver-bench: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func nanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

enum Mode: String { case edit, addRemove = "add-remove" }

/// A system's solver, ready to measure.
struct Measurer {
    var solver = ConstraintSolver()
    var width: SolverVariable
    var height: SolverVariable
    let widthTerms: [LinearTerm]
    let mode: Mode

    init(_ system: BenchSystem, mode: Mode) throws(ConstraintSolverError) {
        var variables: [SolverVariable] = []
        for _ in 0..<system.variableCount { variables.append(solver.makeVariable()) }
        for c in system.constraints {
            _ = try solver.addConstraint(c.terms.map { LinearTerm(variables[$0.variable], $0.coefficient) },
                                         constant: c.constant, relation: c.relation, priority: c.priority)
        }
        width = variables[system.widthVariable]
        height = variables[system.heightVariable]
        widthTerms = [LinearTerm(width, 1)]
        self.mode = mode
        if mode == .edit { try solver.addEditVariable(width, priority: 999) }
    }

    @inline(__always)
    mutating func measure(_ w: Double) throws(ConstraintSolverError) -> Double {
        switch mode {
        case .edit:
            try solver.suggestValue(width, w)
            return solver.value(of: height)
        case .addRemove:
            let handle = try solver.addConstraint(widthTerms, constant: -w, relation: .equal, priority: 1000)
            let h = solver.value(of: height)
            try solver.removeConstraint(handle)
            return h
        }
    }
}

/// The bytes of the file at `path` (a failure names it and exits).
func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "r") else { fail("\(path): cannot open") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return bytes
}

func load(_ path: String) -> [BenchSystem] {
    let bytes = readFile(path)
    do {
        return try SystemFile.read(String(decoding: bytes, as: UTF8.self), file: path)
    } catch {
        fail("\(error)")
    }
}

func measurers(_ systems: [BenchSystem], _ mode: Mode) -> [Measurer] {
    systems.map { system in
        do { return try Measurer(system, mode: mode) } catch { fail("\(system.name): \(error)") }
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: solver-bench generate|time|heights|allocations ...") }
switch arguments[1] {
case "generate":
    guard arguments.count >= 3, let rows = Int(arguments[2]), rows > 0, rows <= 1_000_000 else { fail("generate ROWS [SEED]") }
    var cells = FeedCells(seed: arguments.count > 3 ? UInt64(arguments[3]) ?? 1 : 1)
    print(SystemFile.write((0..<rows).map { cells.system(row: $0) }), terminator: "")
case "time":
    guard arguments.count == 5, let mode = Mode(rawValue: arguments[3]), let reps = Int(arguments[4]), reps > 0 else {
        fail("time FILE edit|add-remove REPS")
    }
    let systems = load(arguments[2])
    var all = measurers(systems, mode)
    var checksum = 0.0
    // One warm-up pass, then the timed ones.
    for i in all.indices { for w in systems[i].widths { checksum += (try? all[i].measure(w)) ?? .nan } }
    var count = 0
    let start = nanoseconds()
    do {
        for _ in 0..<reps {
            for i in all.indices {
                for w in systems[i].widths {
                    checksum += try all[i].measure(w)
                    count += 1
                }
            }
        }
    } catch { fail("\(error)") }
    let elapsed = nanoseconds() - start
    var pivots = 0
    for m in all { pivots += m.solver.pivotCount }
    print("swift \(mode.rawValue) systems=\(systems.count) measurements=\(count) ns_per_measurement=\(Double(elapsed) / Double(count)) checksum=\(checksum) pivots=\(pivots)")
case "heights":
    guard arguments.count == 4, let mode = Mode(rawValue: arguments[3]) else { fail("heights FILE edit|add-remove") }
    let systems = load(arguments[2])
    var all = measurers(systems, mode)
    for i in all.indices {
        for w in systems[i].widths {
            do { print("\(systems[i].name) \(w) \(try all[i].measure(w))") } catch { fail("\(systems[i].name): \(error)") }
        }
    }
case "allocations":
    guard arguments.count == 3 else { fail("allocations FILE") }
    let systems = load(arguments[2])
    var pointer: UnsafeMutablePointer<UInt64>? = nil
    var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
    guard lb_mallctl("thread.allocatedp", &pointer, &size, nil, 0) == 0, let pointer else { fail("jemalloc counters unavailable") }
    for mode in [Mode.edit, .addRemove] {
        var all = measurers(systems, mode)
        var checksum = 0.0
        for _ in 0..<2 { for i in all.indices { for w in systems[i].widths { checksum += (try? all[i].measure(w)) ?? 0 } } }
        let before = lb_read_counter(pointer)
        for _ in 0..<5 { for i in all.indices { for w in systems[i].widths { checksum += (try? all[i].measure(w)) ?? 0 } } }
        let after = lb_read_counter(pointer)
        print("\(mode.rawValue): \(after - before) bytes allocated by warm measurements (checksum \(checksum))")
        if after != before { exit(1) }
    }
case "feed":
    guard arguments.count == 4, let items = Int(arguments[3]), items > 0, items <= 1_000_000 else { fail("feed SCENARIO ITEMS") }
    do { print(try TwoPassFeed.record(scenarioPath: arguments[2], items: items).write(), terminator: "") } catch { fail("\(error)") }
case "feed-time":
    guard arguments.count == 5, ["per-constant", "batched"].contains(arguments[3]), let reps = Int(arguments[4]), reps > 0 else {
        fail("feed-time FILE per-constant|batched REPS")
    }
    let feed = loadFeed(arguments[2])
    var all = feedReplayers(feed, batched: arguments[3] == "batched")
    var checksum = 0.0
    let measurements = feed.measurements
    do {
        // One warm-up pass, then the timed ones.
        for m in measurements { checksum += try all[m.template].measure(m) }
        for i in all.indices { all[i].updates = 0; all[i].solves = 0 }
        let start = nanoseconds()
        for _ in 0..<reps {
            for i in 0..<measurements.count { checksum += try all[measurements[i].template].measure(measurements[i]) }
        }
        let elapsed = nanoseconds() - start
        let count = reps * measurements.count
        let updates = all.reduce(0) { $0 + $1.updates }, solves = all.reduce(0) { $0 + $1.solves }
        print("swift feed-\(arguments[3]) measurements=\(count) ns_per_measurement=\(Double(elapsed) / Double(count)) "
              + "updates_per_measurement=\(Double(updates) / Double(count)) solves_per_measurement=\(Double(solves) / Double(count)) checksum=\(checksum)")
    } catch { fail("\(error)") }
case "feed-heights":
    guard arguments.count == 4, ["per-constant", "batched"].contains(arguments[3]) else { fail("feed-heights FILE per-constant|batched") }
    let feed = loadFeed(arguments[2])
    var all = feedReplayers(feed, batched: arguments[3] == "batched")
    var output = ""
    for (k, m) in feed.measurements.enumerated() {
        do {
            let h = try all[m.template].measure(m)
            output += "\(k) \(h) " + all[m.template].labelWidths.map { "\($0)" }.joined(separator: " ") + "\n"
        } catch { fail("measurement \(k): \(error)") }
    }
    print(output, terminator: "")
case "feed-allocations":
    guard arguments.count == 3 else { fail("feed-allocations FILE") }
    let feed = loadFeed(arguments[2])
    var pointer: UnsafeMutablePointer<UInt64>? = nil
    var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
    guard lb_mallctl("thread.allocatedp", &pointer, &size, nil, 0) == 0, let pointer else { fail("jemalloc counters unavailable") }
    for batched in [false, true] {
        var all = feedReplayers(feed, batched: batched)
        var checksum = 0.0
        let measurements = feed.measurements
        for _ in 0..<2 { for i in 0..<measurements.count { checksum += (try? all[measurements[i].template].measure(measurements[i])) ?? 0 } }
        let before = lb_read_counter(pointer)
        for _ in 0..<3 { for i in 0..<measurements.count { checksum += (try? all[measurements[i].template].measure(measurements[i])) ?? 0 } }
        let after = lb_read_counter(pointer)
        print("feed \(batched ? "batched" : "per-constant"): \(after - before) bytes allocated by warm measurements (checksum \(checksum))")
        if after != before { exit(1) }
    }
case "measure":
    guard arguments.count == 3 else { fail("measure FILE") }
    measure(file: arguments[2])
case "text":
    guard arguments.count == 3 else { fail("text FILE") }
    measureText(file: arguments[2])
case "words":
    var seed: UInt64 = 1
    if arguments.count == 4, arguments[2] == "--seed", let s = UInt64(arguments[3]) { seed = s } else if arguments.count != 2 { fail("words [--seed S]") }
    printWords(seed: seed)
default:
    fail("unknown command \(arguments[1])")
}

/// `measure FILE` (`MeasureRequest`): one JSON object per row on stdout,
/// `{"row": 0, "fresh-engine": h, "fd-add-remove": h, "edit-width": h, "fd-add-remove-batched": h,
/// "edit-width-batched": h, "frame": h | null}` (every `TemplateSolveStrategy`), each h
/// the fitting height (the content view's height after pass 2, before the separator and the
/// 44 pt fallback). The long-lived solvers (one per template and mode) measure the rows in
/// order, as the workload does. Invalid input or a failed measurement: one line on stderr,
/// exit 1, nothing on stdout for the rows after it.
func measure(file: String) {
    let request: MeasureRequest
    do { request = try MeasureRequest.load(path: file) } catch { fail("\(error)") }
    let strategies = TemplateSolveStrategy.allCases
    var measurers: [[TemplateMeasurer]] = []
    // Labels with a font: one uncached text measurer per mode (docs/text.md).
    var text: [(any LabelTextMeasuring)?] = []
    if request.templates.contains(where: TemplateMeasurer.needsText) {
        do { for _ in strategies { text.append(try TextEngine.makeMeasurer(caching: false)) } } catch { fail("\(error.message)") }
    } else {
        text = strategies.map { _ in nil }
    }
    for template in request.templates {
        do {
            measurers.append(try strategies.indices.map { (s) throws(TemplateMeasurementError) in
                try TemplateMeasurer(template: template, strategy: strategies[s], text: text[s])
            })
        } catch {
            fail("\(file): \(TemplateErrors.describe(error, template: template))")
        }
    }
    var output = ""
    for (index, row) in request.rows.enumerated() {
        let template = request.templates[row.template]
        let cellWidth = row.width - template.accessoryWidth
        var line = "{\"row\": \(index)"
        for (s, strategy) in strategies.enumerated() {
            do {
                let h = try measurers[row.template][s].fittingHeight(text: row.text[...], detail: row.detail[...], width: cellWidth)
                line += ", \"\(strategy.rawValue)\": \(h)"
            } catch {
                print(output, terminator: "")
                fail("\(file): rows[\(index)]: \(TemplateErrors.describe(error, template: template))")
            }
        }
        if let kind = template.builtIn {
            line += ", \"frame\": \(kind.rowTemplate.fittingHeight(text: row.text, detail: row.detail, width: row.width))"
        } else {
            line += ", \"frame\": null"
        }
        output += line + "}\n"
        if output.utf8.count > 1 << 16 {
            print(output, terminator: "")
            output = ""
        }
    }
    print(output, terminator: "")
}

/// `text FILE`: FILE has one JSON object a line, `{"text": s, "family": f, "size": pt,
/// "maxLines": n, "widths": [w...]}`; prints one a line, `{"lineHeight": h, "intrinsic": w,
/// "layouts": [[width, lines]...], "cached": [[width, lines]...]}`: the text measured by
/// `ShapedTextMeasurer` without its cache, then with it (each width twice, the second answered by
/// the cache). For scripts/text_oracle.py's differential test. Without the RealText trait, one
/// line naming it.
func measureText(file: String) {
    #if RealText
    struct Case: Decodable {
        var text: String
        var family: String
        var size: Double
        var maxLines: Int
        var widths: [Double]
    }
    guard let data = FileManager.default.contents(atPath: file) else { fail("\(file): cannot read") }
    let plain: ShapedTextMeasurer, cached: ShapedTextMeasurer
    do {
        plain = try ShapedTextMeasurer(caching: false)
        cached = try ShapedTextMeasurer(caching: true)
    } catch { fail("\(error.message)") }
    var output = ""
    for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
        let c: Case
        do { c = try JSONDecoder().decode(Case.self, from: Data(line)) } catch { fail("\(file): line \(index + 1): \(error)") }
        let font: Int, cachedFont: Int
        do {
            font = try plain.resolve(LabelFont(family: c.family, size: c.size))
            cachedFont = try cached.resolve(LabelFont(family: c.family, size: c.size))
        } catch { fail("\(file): line \(index + 1): \(error.message)") }
        var bytes = Array(c.text.utf8)
        let (intrinsic, layouts, again) = bytes.withUnsafeMutableBufferPointer { buffer in
            let text = UnsafeBufferPointer(buffer)
            let intrinsic = plain.intrinsicWidth(of: text, font: font)
            let layouts = c.widths.map { plain.layout(of: text, font: font, width: $0, maxLines: c.maxLines) }
            var again: [LabelTextLayout] = []
            for _ in 0..<2 {
                again = c.widths.map { cached.layout(of: text, font: cachedFont, width: $0, maxLines: c.maxLines) }
            }
            if cached.intrinsicWidth(of: text, font: cachedFont) != intrinsic { again = [] }
            return (intrinsic, layouts, again)
        }
        func list(_ l: [LabelTextLayout]) -> String { "[" + l.map { "[\($0.width), \($0.lines)]" }.joined(separator: ", ") + "]" }
        output += "{\"lineHeight\": \(plain.lineHeight(font: font)), \"intrinsic\": \(intrinsic), \"layouts\": \(list(layouts)), \"cached\": \(list(again))}\n"
        if output.utf8.count > 1 << 16 {
            print(output, terminator: "")
            output = ""
        }
    }
    print(output, terminator: "")
    #else
    fail(TextEngine.missingTrait.message)
    #endif
}

/// `words [--seed S]`: 60 generated paragraphs (3 to 80 words) per language but the syllables,
/// one JSON object a line, `{"language": "ru", "text": "..."}`: what the scenarios' generator
/// writes, for the text oracle.
func printWords(seed: UInt64) {
    var rng = SplitMix64(seed: seed, stream: 9)
    for language in TextLanguage.allCases where language != .syllables {
        for _ in 0..<60 {
            var bytes: [UInt8] = []
            WordGenerator.appendWords(rng.nextInt(in: 3...80), language: language, to: &bytes, using: &rng)
            let text = String(decoding: bytes, as: UTF8.self)
            print("{\"language\": \"\(language.rawValue)\", \"text\": \(JSONValue.quoted(text))}")
        }
    }
}
