import Foundation
import LayoutEngine
import BenchScenarios

/// Upper bounds, computed before anything is generated, on what a scenario produces at its
/// largest item count after its workload: the content height (so every coordinate stays finite
/// and exact) and the memory a run needs. `BenchmarkPlan` refuses a scenario whose bound passes
/// `ScenarioLimits.maxContentHeight` or `ScenarioLimits.memoryShare` of the machine's memory,
/// with the estimate and the JSON path of the value that drives it.
///
/// The bounds are deliberately coarse but safe: sizes come from the distributions' ranges
/// (text heights from the most lines the longest text can take), memory from a per-item cost of
/// the data, the frames and one layout per mode, plus the terms that grow with a workload count
/// (the exact answers of every query frame, appended pages).
package struct ScenarioFootprint: Sendable {
    /// One term of the estimate, with the path of the value that makes it large.
    package struct Term: Sendable {
        package var bytes: Double
        package var path: String
        package var what: String
    }

    package var items: Int
    package var contentHeight: Double
    /// The path that drives the content height.
    package var contentHeightPath: String
    package var contentHeightDetail: String
    package var memoryTerms: [Term]
    /// The most a templated row may measure: heights are known only once measured, so rather
    /// than bound them here the footprint gives each row its share of the content height limit
    /// (at most the size limit), which the measurement holds them to.
    package var templateHeightLimit = TemplateHeightLimit()

    package var memoryBytes: Double { memoryTerms.reduce(0) { $0 + $1.bytes } }

    /// Bytes a run keeps per item beyond the modes' own structures (data, generation buffers,
    /// reference frames). Each mode states its own (`WorkloadMode.bytesPerItem`).
    static let bytesPerItem = 128.0
    /// The size of one `LayoutAttributes` in an array (an exact query answer).
    static let bytesPerElement = Double(MemoryLayout<LayoutAttributes>.stride)
    /// Generated text: at most 4 syllables of 3 letters, a comma and a space per word.
    static let bytesPerWord = 14.0
    /// The widest a generated word can be in `TemplateCell` table units, with its space.
    static let advancePerWord = 12 * 15.5 + 8 + TemplateCell.spaceAdvance

    /// The bounds at `items` (default: the scenario's largest item count).
    package init(plan: BenchmarkPlan, items count: Int? = nil) {
        let scenario = plan.scenario
        let workload = plan.workload
        let base = count ?? plan.scenario.itemCounts.max() ?? 0
        let styles = scenario.layout.sections
        let viewport = scenario.viewportSize

        // Items the workload adds, and the path of the count that sets how many.
        let workloadFootprint = workload.footprint
        let added = workloadFootprint.addedItems, addedPath = workloadFootprint.addedItemsPath
        let extraPerSection = workloadFootprint.newItemsPerSection
        let itemsPath: String
        let sectionCount: Int
        switch scenario.data {
        case .generated(let g):
            sectionCount = g.sections
            let largest = scenario.items?.firstIndex(of: base) ?? 0
            itemsPath = JSONPath.appending("items", index: largest)
        case .explicit(let explicitItems):
            sectionCount = explicitItems.sectionCount
            itemsPath = "data.sections"
        }
        let items = base + added
        self.items = items

        // Item sizes.
        let sizes = Self.itemSizes(scenario: scenario)
        let maximumHeight = sizes.height.upperBound

        // Content height: every section's chrome plus, at worst, one row per item.
        let chrome = styles.map { $0.style.headerHeight + $0.style.footerHeight + $0.style.insets.vertical }
        let maxLineSpacing = styles.map(\.style.lineSpacing).max() ?? 0
        let chromeHeight = Double(sectionCount) * (chrome.max() ?? 0)
        let itemHeights = Double(items) * maximumHeight
        let spacingHeights = Double(items) * maxLineSpacing
        contentHeight = chromeHeight + itemHeights + spacingHeights
        if scenario.data.isTemplated {
            let share = (ScenarioLimits.maxContentHeight - chromeHeight - spacingHeights) / Double(Swift.max(items, 1))
            if share < ScenarioLimits.maxSize { templateHeightLimit = TemplateHeightLimit(height: Swift.max(share, 0), items: items) }
        }
        if itemHeights >= spacingHeights && itemHeights >= chromeHeight {
            contentHeightPath = sizes.heightPath
            contentHeightDetail = "\(items) items × up to \(format(maximumHeight)) pt"
        } else if spacingHeights >= chromeHeight {
            let style = styles.max { $0.style.lineSpacing < $1.style.lineSpacing }!
            contentHeightPath = JSONPath.appending(style.path, key: "lineSpacing")
            contentHeightDetail = "\(items) items × line spacing \(format(maxLineSpacing)) pt"
        } else {
            contentHeightPath = scenario.data.isExplicit ? "data.sections" : "data.generate.sections"
            contentHeightDetail = "\(sectionCount) sections × up to \(format(chrome.max() ?? 0)) pt of headers, footers and insets"
        }

        // Memory.
        let modes = Double(plan.modes.count)
        let modeBytesPerItem = plan.modes.reduce(0) { $0 + $1.bytesPerItem }
        var terms = [Term(
            bytes: Double(items) * (Self.bytesPerItem + modeBytesPerItem), path: itemsPath,
            what: "data, frames and what \(plan.modes.count) modes keep for \(items) items")]
        terms.append(Term(bytes: Double(sectionCount) * 256, path: scenario.data.isExplicit ? "data.sections" : "data.generate.sections",
                          what: "\(sectionCount) sections"))
        // Waterfall state per section and column (column bottoms, lanes, checkpoints).
        let columnStyles = styles.compactMap { section -> (Int, String)? in
            guard case .waterfall(let waterfall) = section.style.kind else { return nil }
            return (waterfall.columns, JSONPath.appending(section.path, key: "columns"))
        }
        if let (columns, path) = columnStyles.max(by: { $0.0 < $1.0 }) {
            terms.append(Term(bytes: Double(sectionCount) * Double(columns) * 128 * modes, path: path,
                              what: "the state of \(columns) columns in each of \(sectionCount) sections"))
        }
        if case .generated(let g) = scenario.data, case .text(_, let maxWords, _) = g.heights {
            let generated = Double(items) + Double(extraPerSection) * Double(sectionCount)
            terms.append(Term(bytes: generated * (Double(maxWords) * Self.bytesPerWord + 16),
                              path: "data.generate.heights.maxWords", what: "texts of up to \(maxWords) words"))
        }
        if case .generated(let g) = scenario.data, case .template(_, _, let maxWords) = g.heights {
            // A templated row carries a generated text and a detail.
            let generated = Double(items) + Double(extraPerSection) * Double(sectionCount)
            terms.append(Term(bytes: 2 * generated * (Double(maxWords) * Self.bytesPerWord + 16),
                              path: "data.generate.heights.maxWords", what: "texts and details of up to \(maxWords) words"))
        }
        if extraPerSection > 0 {
            // Extra items are generated for every section, then kept as the trace's changes.
            terms.append(Term(bytes: Double(extraPerSection) * Double(sectionCount) * 64 + Double(added) * 32 * modes,
                              path: addedPath, what: "\(extraPerSection) new items for each of \(sectionCount) sections"))
        }
        let frames = workloadFootprint.keptAnswerFrames
        if frames > 0 {
            let perQuery = Self.elementsPerQuery(
                styles: styles.map(\.style), items: items, sections: sectionCount, viewport: viewport, sizes: sizes)
            terms.append(Term(bytes: Double(frames) * perQuery.elements * (Self.bytesPerElement + 8),
                              path: "workload.frames",
                              what: "exact answers of \(frames) frames × up to \(format(perQuery.elements)) elements"))
            terms.append(Term(bytes: Double(items) * (2 + perQuery.overlap) * 4 * modes, path: itemsPath,
                              what: "query indices with up to \(format(perQuery.overlap)) items side by side"))
        }
        memoryTerms = terms
    }

    /// Throws when the content height or the memory estimate is too large (see the type).
    package func check(file: String, physicalMemory: Double = ScenarioFootprint.physicalMemory()) throws(ScenarioError) {
        guard contentHeight.isFinite && contentHeight <= ScenarioLimits.maxContentHeight else {
            throw ScenarioError(
                file: file, path: contentHeightPath,
                message: "the content height could reach \(format(contentHeight)) pt at \(items) items (\(contentHeightDetail)), "
                    + "more than the limit of \(format(ScenarioLimits.maxContentHeight)) pt that keeps coordinates exact; lower it")
        }
        let budget = physicalMemory * ScenarioLimits.memoryShare
        let total = memoryBytes
        guard total.isFinite && total <= budget else {
            let driver = memoryTerms.max { $0.bytes < $1.bytes }!
            throw ScenarioError(
                file: file, path: driver.path,
                message: "needs an estimated \(Self.gigabytes(total)) of memory at \(items) items, mostly \(driver.what) "
                    + "(\(Self.gigabytes(driver.bytes))); this machine has \(Self.gigabytes(physicalMemory)) and a run may use "
                    + "\(Int(ScenarioLimits.memoryShare * 100)) %; lower it")
        }
    }

    /// The machine's physical memory in bytes (`MemTotal` of /proc/meminfo, else sysconf).
    package static func physicalMemory() -> Double {
        if let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }),
           let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) {
            return kilobytes * 1024
        }
        return Double(ProcessInfo.processInfo.physicalMemory)
    }

    static func gigabytes(_ bytes: Double) -> String {
        bytes.isFinite ? String(format: "%.1f GB", bytes / 1e9) : "an unbounded amount"
    }

    // MARK: Sizes

    struct ItemSizes {
        var width: ClosedRange<Double>
        var height: ClosedRange<Double>
        var heightPath: String
    }

    /// The range of item widths (flow) and heights the data can produce.
    static func itemSizes(scenario: Scenario) -> ItemSizes {
        switch scenario.data {
        case .explicit(let items):
            let minW = items.widths.min() ?? 0, maxW = items.widths.max() ?? 0
            let minH = items.heights.min() ?? 0, maxH = items.heights.max() ?? 0
            return ItemSizes(width: minW...maxW, height: minH...maxH, heightPath: "data.sections")
        case .generated(let g):
            let width = g.widths.bounds ?? 0...0
            let height: ClosedRange<Double>
            if case .text(let minWords, let maxWords, let cell) = g.heights {
                height = textHeights(minWords: minWords, maxWords: maxWords, cell: cell, scenario: scenario, widths: width)
            } else {
                height = g.heights.bounds ?? 0...0
            }
            return ItemSizes(width: width, height: height, heightPath: "data.generate.heights")
        }
    }

    /// Text heights: from the padding (or one line) up to the most lines the longest text can
    /// take at the narrowest width any item is measured at.
    static func textHeights(minWords: Int, maxWords: Int, cell: TemplateCell, scenario: Scenario, widths: ClosedRange<Double>) -> ClosedRange<Double> {
        var narrowest = Double.infinity
        for section in scenario.layout.sections {
            let width = Scenario.measurementWidth(
                style: section.style, contentWidth: scenario.viewportSize.width, itemWidth: widths.lowerBound, spansAllColumns: false)
            narrowest = Swift.min(narrowest, cell.labelWidth(forCellWidth: width))
        }
        let limit = Swift.max(narrowest, 1) / cell.fontScale
        let lines = Double(maxWords) * (advancePerWord / limit + 1) + 1
        let fewest = minWords > 0 ? 1.0 : 0.0
        let low = Swift.max(cell.padding.vertical + fewest * cell.lineHeight, cell.minimumHeight)
        let high = Swift.max(cell.padding.vertical + lines * cell.lineHeight, cell.minimumHeight)
        return Swift.min(low, high)...high
    }

    /// How many elements one viewport query can return at most, and how many items a horizontal
    /// line can cross (`overlap`: 1 in a list, the columns of a waterfall, a flow row's items).
    static func elementsPerQuery(
        styles: [SectionStyle], items: Int, sections: Int, viewport: Size, sizes: ItemSizes
    ) -> (elements: Double, overlap: Double) {
        let n = Double(items)
        var overlap = 1.0, pitch = Double.infinity, chrome = Double.infinity
        for style in styles {
            switch style.kind {
            case .list: break
            case .waterfall(let waterfall): overlap = Swift.max(overlap, Double(waterfall.columns))
            case .flow:
                let step = sizes.width.lowerBound + style.itemSpacing
                let region = viewport.width - style.insets.horizontal
                overlap = Swift.max(overlap, step > 0 ? ((region + style.itemSpacing) / step).rounded(.down) + 1 : n)
            }
            pitch = Swift.min(pitch, sizes.height.lowerBound + style.lineSpacing)
            chrome = Swift.min(chrome, style.headerHeight + style.footerHeight + style.insets.vertical)
        }
        overlap = Swift.min(overlap, Swift.max(n, 1))
        let rows = pitch > 0 ? viewport.height / pitch + 2 : n
        let sectionsInView = chrome > 0 ? Swift.min(Double(sections), viewport.height / chrome + 2) : Double(sections)
        return (Swift.min(n, overlap * rows) + 3 * sectionsInView, overlap)
    }
}
