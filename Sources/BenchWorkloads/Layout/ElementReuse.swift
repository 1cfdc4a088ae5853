import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The cells of `layout-reuse-scroll`: the slots, each slot's reuse identifier, and the pool.
final class ElementReuse {
    let slots: ElementSlots
    /// Per slot: an item's drawn identifier (`0 ..< identifiers`); a header's is `identifiers`,
    /// a footer's `identifiers + 1`, a decoration's `identifiers + 2`.
    let identifiers: [UInt8]
    private(set) var pool: SlotReusePool<StackCells>
    /// The answer as slots, reused every step.
    private var answerSlots: [Int32] = []

    init(slots: ElementSlots, identifiers count: Int, seed: Int, mostVisible: Int) {
        self.slots = slots
        var random = SplitMix64(seed: UInt64(seed), stream: 6)
        var identifiers = [UInt8](repeating: 0, count: slots.count)
        for section in slots.itemCounts.indices {
            let base = slots.sectionBase[section], items = slots.itemCounts[section]
            for item in 0..<items { identifiers[base + item] = UInt8(random.next(below: count)) }
            for kind in 1...3 { identifiers[base + items + kind - 1] = UInt8(count + kind - 1) }
        }
        for (id, slot) in slots.extras { identifiers[Int(slot)] = id.kind == .item ? 0 : UInt8(count + Int(id.kind.rawValue) - 1) }
        self.identifiers = identifiers
        // A stack as deep as the most elements ever visible: no free cell is ever dropped, so
        // the cells created are the fewest the trace needs.
        pool = SlotReusePool(source: StackCells(identifierCount: count + 3, capacity: mostVisible + 2), slotCount: slots.count)
        answerSlots.reserveCapacity(max(256, mostVisible * 2))
    }

    func identifier(of id: ElementID) -> UInt8 {
        let slot = slots.slot(of: id)
        return slot >= 0 ? identifiers[Int(slot)] : 0
    }

    /// Shows the cells of `answer`; returns how many elements show one.
    @inline(__always)
    func show(_ answer: [LayoutAttributes]) -> Int {
        answerSlots.removeAll(keepingCapacity: true)
        for attributes in answer {
            let slot = slots.slot(of: attributes.id)
            if slot >= 0 { answerSlots.append(slot) }
        }
        pool.show(answerSlots, identifiers: identifiers)
        return pool.visibleCellCount
    }

    /// How the pool after showing `answer` differs from the plain simulation's `expected`
    /// counts, or from one cell of its own identifier per visible element; nil when it does not.
    func firstProblem(answer: [LayoutAttributes], expected: ReuseReference.Step, step: String) -> LayoutContract.Violation? {
        var owner: [Int: ElementID] = [:]
        for id in Set(answer.map(\.id)).sorted() {
            let slot = slots.slot(of: id)
            guard let cell = pool.cell(forSlot: Int(slot)) else {
                return LayoutContract.Violation(check: "reuse-cell", step: step, element: id, detail: "visible, but it shows no cell")
            }
            if let other = owner.updateValue(id, forKey: cell) {
                return LayoutContract.Violation(check: "reuse-cell", step: step, element: id, detail: "shows cell \(cell), which \(other) shows too")
            }
            let created = pool.cellIdentifiers[cell], own = identifiers[Int(slot)]
            if created != own {
                return LayoutContract.Violation(
                    check: "reuse-cell", step: step, element: id, detail: "of reuse identifier \(own), shows cell \(cell), created for identifier \(created)")
            }
        }
        let statistics = pool.statistics
        let counts: [(String, Int, Int)] = [
            ("reuse-visible", pool.visibleCellCount, expected.visible),
            ("reuse-created", statistics.cellsCreated, expected.created),
            ("reuse-dequeues", statistics.dequeues, expected.dequeues),
            ("reuse-reused", statistics.dequeues - statistics.cellsCreated, expected.reused),
        ]
        for (check, actual, wanted) in counts where actual != wanted {
            return LayoutContract.Violation(
                check: check, step: step, element: nil, detail: "the pool counts \(actual), the plain simulation of the reuse rules \(wanted)")
        }
        return nil
    }
}
