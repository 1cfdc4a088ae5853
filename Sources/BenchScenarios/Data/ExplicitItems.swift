import Foundation
import LayoutEngine

/// Items given one by one (`data.sections` or `data.file`), stored as the flat arrays that
/// `LayoutData` keeps, so that a million items cost a few appends each and no per-item object.
///
/// Sections are contiguous runs of items: `sectionCounts[s]` items in section `s`, in order.
/// Texts (CSV `text` column, `"text"` key) are kept only when at least one item has one.
package struct ExplicitItems: Hashable, Sendable {
    package private(set) var widths: [Double] = []
    package private(set) var heights: [Double] = []
    package private(set) var spansAllColumns: [Bool] = []
    package private(set) var sectionCounts: [Int] = []
    /// One text per item (empty for items without one), or nil when no item has a text.
    package private(set) var texts: ItemTexts?
    /// The constraint templates items name (`"template"`), each once, in order of first use.
    package private(set) var templateNames: [String] = []
    /// Per item, its template's index in `templateNames` (-1 for none); empty when no item names one.
    package private(set) var templateKinds: [Int] = []
    /// One detail text per item (empty for items without one), or nil when no item has one.
    package private(set) var details: ItemTexts?

    package init() {}

    /// Items per section, as in the scenario file (`data.sections`).
    package init(sections: [[ItemSize]]) {
        for items in sections {
            appendSection()
            for item in items { append(width: item.width, height: item.height, spansAllColumns: item.spansAllColumns) }
        }
    }

    package var count: Int { heights.count }
    package var sectionCount: Int { sectionCounts.count }

    package mutating func reserveCapacity(_ items: Int) {
        widths.reserveCapacity(items)
        heights.reserveCapacity(items)
        spansAllColumns.reserveCapacity(items)
    }

    /// Starts a new, empty section.
    package mutating func appendSection() { sectionCounts.append(0) }

    /// Appends an item to the last section (there must be one).
    package mutating func append(width: Double, height: Double, spansAllColumns spans: Bool, text: ArraySlice<UInt8>? = nil,
                                template: String? = nil, detail: ArraySlice<UInt8>? = nil) {
        assert(!sectionCounts.isEmpty, "append a section first")
        // A templated item always has a text and a detail (empty when not given).
        let text = text ?? (template != nil ? [] : nil)
        let detail = detail ?? (template != nil ? [] : nil)
        if let template {
            if templateKinds.isEmpty { templateKinds = Array(repeating: -1, count: heights.count) }
            if let index = templateNames.firstIndex(of: template) {
                templateKinds.append(index)
            } else {
                templateNames.append(template)
                templateKinds.append(templateNames.count - 1)
            }
        } else if !templateKinds.isEmpty {
            templateKinds.append(-1)
        }
        Self.append(detail, to: &details, before: heights.count)
        Self.append(text, to: &texts, before: heights.count)
        widths.append(width)
        heights.append(height)
        spansAllColumns.append(spans)
        sectionCounts[sectionCounts.count - 1] += 1
    }

    /// Appends `text` to the optional column `column` of `count` items so far: the column is
    /// made (empty for every earlier item) on the first text, and gets an empty entry for an
    /// item without one once it exists.
    private static func append(_ text: ArraySlice<UInt8>?, to column: inout ItemTexts?, before count: Int) {
        if let text {
            if column == nil {
                var empty = ItemTexts()
                for _ in 0..<count { empty.appendEmpty() }
                column = empty
            }
            column!.append(text)
        } else if column != nil {
            column!.appendEmpty()
        }
    }

    /// The items of section `s` (for workloads that repeat a section's own items).
    package func items(inSection s: Int) -> [ItemSize] {
        let start = sectionCounts[..<s].reduce(0, +)
        return (start..<(start + sectionCounts[s])).map {
            ItemSize(width: widths[$0], height: heights[$0], spansAllColumns: spansAllColumns[$0])
        }
    }

    /// The first `n` items (0 < n <= count, or n == count == 0) and the sections they fall in: a section after the
    /// one that holds item `n - 1` is left out, as if the data source had loaded only that far.
    /// `prefix(count)` is the whole data, trailing empty sections included.
    package func prefix(_ n: Int) -> ExplicitItems {
        precondition((n > 0 || n == count) && n <= count, "prefix of \(n) items out of \(count)")
        guard n < count else { return self }
        var result = ExplicitItems()
        var remaining = n
        for sectionCount in sectionCounts where remaining > 0 {
            let taken = Swift.min(sectionCount, remaining)
            result.sectionCounts.append(taken)
            remaining -= taken
        }
        result.widths = Array(widths[..<n])
        result.heights = Array(heights[..<n])
        result.spansAllColumns = Array(spansAllColumns[..<n])
        if let texts {
            var kept = ItemTexts()
            for i in 0..<n { kept.append(texts[i]) }
            result.texts = kept
        }
        if let details {
            var kept = ItemTexts()
            for i in 0..<n { kept.append(details[i]) }
            result.details = kept
        }
        if !templateKinds.isEmpty {
            result.templateNames = templateNames
            result.templateKinds = Array(templateKinds[..<n])
        }
        return result
    }

    /// The engine's data: the arrays are shared, not copied.
    package func makeData() throws(LayoutError) -> LayoutData {
        try LayoutData(widths: widths, heights: heights, spansAllColumns: spansAllColumns, counts: sectionCounts)
    }
}

// MARK: Handing the items to a child process

extension ExplicitItems: Codable {
    private enum CodingKeys: String, CodingKey { case widths, heights, spansAllColumns, sectionCounts, texts, templateNames, templateKinds, details }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        widths = try RawArrayCoding.array(c.decode(Data.self, forKey: .widths), of: Double.self, codingPath: c.codingPath)
        heights = try RawArrayCoding.array(c.decode(Data.self, forKey: .heights), of: Double.self, codingPath: c.codingPath)
        spansAllColumns = RawArrayCoding.flags(try c.decode(Data.self, forKey: .spansAllColumns))
        sectionCounts = try c.decode([Int].self, forKey: .sectionCounts)
        texts = try c.decodeIfPresent(ItemTexts.self, forKey: .texts)
        templateNames = try c.decodeIfPresent([String].self, forKey: .templateNames) ?? []
        templateKinds = try c.decodeIfPresent([Int].self, forKey: .templateKinds) ?? []
        details = try c.decodeIfPresent(ItemTexts.self, forKey: .details)
        guard templateKinds.isEmpty || templateKinds.count == heights.count, details.map({ $0.count == heights.count }) ?? true,
              templateKinds.allSatisfy({ $0 >= -1 && $0 < templateNames.count }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "template arrays of different lengths"))
        }
        guard widths.count == heights.count, spansAllColumns.count == heights.count,
              sectionCounts.reduce(0, +) == heights.count, texts.map({ $0.count == heights.count }) ?? true else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "item arrays of different lengths"))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(RawArrayCoding.data(widths), forKey: .widths)
        try c.encode(RawArrayCoding.data(heights), forKey: .heights)
        try c.encode(RawArrayCoding.data(spansAllColumns), forKey: .spansAllColumns)
        try c.encode(sectionCounts, forKey: .sectionCounts)
        try c.encodeIfPresent(texts, forKey: .texts)
        if !templateKinds.isEmpty {
            try c.encode(templateNames, forKey: .templateNames)
            try c.encode(templateKinds, forKey: .templateKinds)
        }
        try c.encodeIfPresent(details, forKey: .details)
    }
}
