import LayoutEngine
import BenchPlatform
import BenchResults

/// The input of `solver-bench measure FILE` (the hook the Python LP and kiwisolver oracles call):
///
///     {"templates": {<data.templates, docs/scenario-format.md>},
///      "rows": [{"template": "post", "text": "…", "detail": "…", "width": 375}, …]}
///
/// `template` names one of `templates` or a built-in row kind (`title`, `title-body`, `image`);
/// `detail` may be left out (empty); `width` is the row's width, and the cell is measured at that
/// width minus the template's accessory (0 for every template written in the file; 34 for
/// `title-body`, 40 for `image`). `templates` may be left out when only built-in kinds are used.
package struct MeasureRequest {
    package struct Row {
        package var template: Int
        package var text: [UInt8]
        package var detail: [UInt8]
        package var width: Double
    }

    package var templates: [CellTemplate]
    package var rows: [Row]

    package static let maxRows = 10_000_000

    package init(parsing bytes: [UInt8], file: String) throws(ScenarioError) {
        let root = try JSONReader(document: try JSONParser.parse(bytes, file: file), file: file)
        var templates = try root.optional("templates").map { (node) throws(ScenarioError) in try TemplateParsing.parseTemplates(node) } ?? []
        let rowsNode = try root.require("rows")
        let nodes = try rowsNode.array()
        guard nodes.count <= Self.maxRows else { throw rowsNode.error("expected at most \(Self.maxRows) rows") }
        var rows: [Row] = []
        rows.reserveCapacity(nodes.count)
        for node in nodes {
            let r = try node.object()
            let nameNode = try r.require("template")
            let name = try nameNode.string()
            var index = templates.firstIndex { $0.name == name }
            if index == nil, let kind = BuiltInRowKind(rawValue: name) {
                templates.append(kind.template)
                index = templates.count - 1
            }
            guard let index else {
                let known = (templates.filter { $0.builtIn == nil }.map(\.name) + BuiltInRowKind.allCases.map(\.rawValue))
                    .map { JSONValue.quoted($0) }.joined(separator: ", ")
                throw nameNode.error("unknown template \(JSONValue.quoted(name)); expected one of \(known)")
            }
            let text = try r.requireString("text")
            let detail = try r.optionalString("detail", default: "")
            let width = try r.requireDouble("width", .positiveSize)
            try r.finish()
            rows.append(Row(template: index, text: Array(text.utf8), detail: Array(detail.utf8), width: width))
        }
        try root.finish()
        self.templates = templates
        self.rows = rows
    }
}

extension MeasureRequest {
    /// Reads and parses the file at `path`; errors name `path` as given.
    package static func load(path: String) throws(ScenarioError) -> MeasureRequest {
        let bytes: [UInt8]
        do { bytes = try readFileBytes(path) } catch {
            throw ScenarioError(file: path, path: "", message: "cannot read the file: \(error.reason)")
        }
        return try MeasureRequest(parsing: bytes, file: path)
    }
}
