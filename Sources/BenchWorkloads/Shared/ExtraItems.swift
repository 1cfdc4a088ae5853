import LayoutEngine
import BenchScenarios

extension Scenario {
    /// Items drawn like the scenario's own but from another random stream, `count` for each
    /// section (with that section's kind: flow widths, waterfall full-width items), for the items
    /// that workloads append or insert. Explicit data repeats each section's own items.
    package func makeExtraItems(count: Int, stream: UInt64) throws(ScenarioError) -> [[ItemSize]] {
        switch data {
        case .generated(var generator):
            let sectionCount = generator.sections
            generator.seed = generator.seed &+ 0x9E37_79B9 &* stream
            var extra = self
            extra.data = .generated(generator)
            let generated = try extra.makeData(items: count * sectionCount)
            return (0..<sectionCount).map { s in
                generated.itemRange(inSection: s).map { generated.size(section: s, item: $0 - generated.sectionStarts[s]) }
            }
        case .explicit(let explicitItems):
            return (0..<explicitItems.sectionCount).map { s in
                let items = explicitItems.items(inSection: s)
                return (0..<count).map { i in items.isEmpty ? ItemSize(width: 100, height: 44) : items[i % items.count] }
            }
        }
    }
}
