import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// One slot per element a layout of `data` can show, for the reuse pool: section by section, its
/// items, then its header, footer and decoration (index 0); any other element a query returned
/// gets a slot after those.
struct ElementSlots {
    /// The first slot of each section.
    let sectionBase: [Int]
    let itemCounts: [Int]
    let extras: [ElementID: Int32]
    let count: Int

    init(data: LayoutData) {
        var base: [Int] = []
        var counts: [Int] = []
        var next = 0
        for section in 0..<data.sectionCount {
            base.append(next)
            counts.append(data.itemCount(inSection: section))
            next += counts[section] + 3
        }
        sectionBase = base
        itemCounts = counts
        extras = [:]
        count = next
    }

    private init(sectionBase: [Int], itemCounts: [Int], extras: [ElementID: Int32], count: Int) {
        self.sectionBase = sectionBase
        self.itemCounts = itemCounts
        self.extras = extras
        self.count = count
    }

    /// These slots and one more for each of `ids`, in ID order.
    func adding(_ ids: Set<ElementID>) -> ElementSlots {
        var extras = self.extras
        var next = count
        for id in ids.sorted() where extras[id] == nil {
            extras[id] = Int32(next)
            next += 1
        }
        return ElementSlots(sectionBase: sectionBase, itemCounts: itemCounts, extras: extras, count: next)
    }

    /// The slot of an item of the data, or of a section's index-0 header, footer or decoration.
    @inline(__always)
    func standardSlot(of id: ElementID) -> Int? {
        let section = id.section
        guard section >= 0, section < itemCounts.count else { return nil }
        if id.kind == .item {
            return id.index >= 0 && id.index < itemCounts[section] ? sectionBase[section] + id.index : nil
        }
        return id.index == 0 ? sectionBase[section] + itemCounts[section] + Int(id.kind.rawValue) - 1 : nil
    }

    /// The slot of `id`, or -1 for an element never seen.
    @inline(__always)
    func slot(of id: ElementID) -> Int32 {
        if let slot = standardSlot(of: id) { return Int32(slot) }
        return extras[id] ?? -1
    }
}
