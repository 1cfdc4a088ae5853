import LayoutEngine

/// The reuse rules of a scrolling collection view, simulated the plainest way, with sets of
/// elements and a count of free cells per reuse identifier: the oracle of the generic
/// `layout-reuse-scroll` (whose pool is `SlotReusePool` over `StackCells`).
///
/// At each step the visible elements are those of the step's answer (each once). The elements
/// that were visible and are no longer give their cells back to their identifier's free cells
/// (without bound); then each element that became visible takes a free cell of its identifier,
/// or a new one is created when there is none. Counted per step: the visible elements, the
/// elements that entered (dequeues), the cells created and the cells reused (entered − created).
///
/// Nothing here knows about slots, stamps or stacks.
public struct ReuseReference {
    /// The counts after one step, running totals except `visible` and `entered`.
    public struct Step: Hashable, Sendable {
        public var visible: Int
        public var entered: Int
        public var created: Int
        public var dequeues: Int
        public var reused: Int { dequeues - created }
    }

    private var visible: Set<ElementID> = []
    private var free: [Int: Int] = [:]
    private var created = 0
    private var dequeues = 0
    /// Per identifier, the most of its elements visible at once.
    public private(set) var mostVisibleByIdentifier: [Int: Int] = [:]
    public private(set) var mostVisible = 0

    public init() {}

    /// The step whose answer is `answer`; `identifier` gives each element's reuse identifier.
    public mutating func step(_ answer: [ElementID], identifier: (ElementID) -> Int) -> Step {
        let now = Set(answer)
        for left in visible.subtracting(now) { free[identifier(left), default: 0] += 1 }
        let entered = now.subtracting(visible)
        for element in entered {
            let id = identifier(element)
            if let count = free[id], count > 0 {
                free[id] = count - 1
            } else {
                created += 1
            }
        }
        dequeues += entered.count
        visible = now
        var byIdentifier: [Int: Int] = [:]
        for element in now { byIdentifier[identifier(element), default: 0] += 1 }
        for (id, count) in byIdentifier { mostVisibleByIdentifier[id] = max(mostVisibleByIdentifier[id] ?? 0, count) }
        mostVisible = max(mostVisible, now.count)
        return Step(visible: now.count, entered: entered.count, created: created, dequeues: dequeues)
    }

    /// The fewest cells any reuse could create for the steps so far: per identifier, the most of
    /// its elements visible at once, summed (with unbounded free cells, exactly `created`).
    public var cellsNeeded: Int { mostVisibleByIdentifier.values.reduce(0, +) }
}
