@testable import LayoutEngine
@testable import LayoutTestSupport

/// A registry with the three row kinds of a feed, and random rows for them.
struct FeedRows {
    var registry = TemplateRegistry()
    let title: ReuseIdentifier
    let titleBody: ReuseIdentifier
    let image: ReuseIdentifier
    var nextID = 1

    init() {
        title = registry.register(RowTemplate(layout: .title), forReuseIdentifier: "title")
        titleBody = registry.register(
            RowTemplate(layout: .titleAndBody(spacing: 4), accessory: .disclosureIndicator), forReuseIdentifier: "title-body")
        image = registry.register(
            RowTemplate(layout: .imageWithCaption(aspectRatio: 1.5, spacing: 6), accessory: .custom(width: 24)),
            forReuseIdentifier: "image")
    }

    static func words(_ count: Int, _ rng: inout SeededRandom) -> String {
        let syllables = ["ka", "lom", "i", "ne", "wu", "mar", "sty", "W", "qua", "e"]
        return (0..<count).map { _ in (0..<rng.int(1...3)).map { _ in rng.pick(syllables) }.joined() }.joined(separator: " ")
    }

    mutating func item(_ rng: inout SeededRandom) -> TableItem {
        defer { nextID += 1 }
        let kind = rng.pick([title, titleBody, image])
        let content = RowContent(text: Self.words(rng.int(0...30), &rng), detail: Self.words(rng.int(0...40), &rng))
        return TableItem(id: nextID, reuseIdentifier: kind, content: content)
    }

    mutating func sections(_ counts: [Int], _ rng: inout SeededRandom) -> [[TableItem]] {
        counts.map { n in (0..<n).map { _ in item(&rng) } }
    }
}

/// UIKit's batch semantics written the plain way (array inserts and removes, one at a time),
/// independently of `BatchPlan`: the oracle for the ids a batch leaves in each section.
enum NaiveBatch {
    static func apply(_ batch: BatchUpdate, to old: [[TableItem]]) -> [[TableItem]] {
        var deletedSections = Set<Int>(), movedSections: [(Int, Int)] = [], insertedSections: [(Int, [TableItem])] = []
        var reloadedSections: [Int: [TableItem]] = [:]
        var deletedItems = Set<ItemPath>(), reloadedItems: [ItemPath: TableItem] = [:]
        var insertedItems: [(ItemPath, TableItem)] = [], movedItems: [(ItemPath, ItemPath)] = []
        for call in batch.calls {
            switch call {
            case .deleteSections(let s): deletedSections.formUnion(s)
            case .moveSection(let f, let t): movedSections.append((f, t))
            case .insertSections(let c): insertedSections += c.map { ($0.index, $0.items) }
            case .reloadSections(let c): for x in c { reloadedSections[x.index] = x.items }
            case .deleteItems(let p): deletedItems.formUnion(p)
            case .reloadItems(let p): for x in p { reloadedItems[x.path] = x.item }
            case .insertItems(let p): insertedItems += p.map { ($0.path, $0.item) }
            case .moveItem(let f, let t): movedItems.append((f, t))
            }
        }
        // Old sections with their item edits on the old side, tagged by old index.
        var tagged: [(old: Int?, items: [TableItem])] = []
        let movedFrom = Set(movedSections.map(\.0))
        let movedItemSources = Set(movedItems.map(\.0))
        for (s, items) in old.enumerated() {
            var kept: [TableItem] = []
            if let replacement = reloadedSections[s] {
                kept = replacement
            } else {
                for (i, item) in items.enumerated() {
                    let path = ItemPath(section: s, item: i)
                    if deletedItems.contains(path) || movedItemSources.contains(path) { continue }
                    kept.append(reloadedItems[path] ?? item)
                }
            }
            tagged.append((s, kept))
        }
        var survivors = tagged.enumerated().filter { !deletedSections.contains($0.offset) && !movedFrom.contains($0.offset) }.map(\.element)
        var placed: [(Int, (old: Int?, items: [TableItem]))] = insertedSections.map { ($0.0, (nil, $0.1)) }
        for (f, t) in movedSections { placed.append((t, tagged[f])) }
        for (index, section) in placed.sorted(by: { $0.0 < $1.0 }) { survivors.insert(section, at: index) }
        var result = survivors.map(\.items)
        var arriving = insertedItems
        for (f, t) in movedItems { arriving.append((t, old[f.section][f.item])) }
        for (path, item) in arriving.sorted(by: { $0.0 < $1.0 }) { result[path.section].insert(item, at: path.item) }
        return result
    }
}

/// Random valid batches (and, on request, invalid ones) for a model.
struct RandomBatches {
    var rows: FeedRows

    /// A batch valid for `sections`, with up to `changes` changes of every kind UIKit allows.
    mutating func valid(_ sections: [[TableItem]], changes: Int, _ rng: inout SeededRandom, allowSections: Bool = true) -> BatchUpdate {
        var batch = BatchUpdate()
        let oldCount = sections.count
        var role = [Int](repeating: 0, count: oldCount)   // 0 kept, 1 deleted, 2 reloaded, 3 moved
        var free = Array(0..<oldCount).shuffled(using: &rng)
        var newSideSections = 0  // inserted + moved sections placed at new indices
        var insertedSectionItems: [[TableItem]] = []
        var movedSources: [Int] = []
        if allowSections, oldCount > 0, rng.chance(0.4) {
            let deletes = rng.int(0...min(2, free.count))
            let list = Array(free.prefix(deletes)); free.removeFirst(deletes)
            for s in list { role[s] = 1 }
            if !list.isEmpty { batch.deleteSections(list) }
            if let s = free.first, rng.chance(0.5) { free.removeFirst(); role[s] = 2; batch.reloadSection(s, items: (0..<rng.int(0...5)).map { _ in rows.item(&rng) }) }
            if let s = free.first, rng.chance(0.5) { free.removeFirst(); role[s] = 3; movedSources.append(s) }
        }
        if allowSections, rng.chance(0.3) {
            insertedSectionItems = (0..<rng.int(1...2)).map { _ in (0..<rng.int(0...4)).map { _ in rows.item(&rng) } }
        }
        newSideSections = movedSources.count + insertedSectionItems.count
        let newCount = oldCount - role.filter { $0 == 1 }.count + insertedSectionItems.count
        var targets = Array(Array(0..<newCount).shuffled(using: &rng).prefix(newSideSections)).sorted()
        targets.shuffle(using: &rng)
        // Avoid a move onto itself: retry a few times.
        for (k, s) in movedSources.enumerated() where targets[k] == s {
            if let other = (0..<newCount).first(where: { !targets.contains($0) && $0 != s }) { targets[k] = other } else { role[s] = 0 }
        }
        var sourceOfNew = [Int?](repeating: nil, count: newCount)  // old kept/moved section feeding each new section
        var fixed = [Bool](repeating: false, count: newCount)
        for (k, s) in movedSources.enumerated() where role[s] == 3 {
            batch.moveSection(s, to: targets[k]); fixed[targets[k]] = true; sourceOfNew[targets[k]] = s
        }
        var t = movedSources.count
        for items in insertedSectionItems {
            while t < targets.count, fixed[targets[t]] { t += 1 }
            let index = t < targets.count ? targets[t] : (0..<newCount).first { !fixed[$0] }!
            fixed[index] = true
            batch.insertSection(items, at: index)
            t += 1
        }
        var nextOld = 0
        for index in 0..<newCount where !fixed[index] {
            while role[nextOld] == 1 || role[nextOld] == 3 { nextOld += 1 }
            if role[nextOld] == 0 { sourceOfNew[index] = nextOld }
            nextOld += 1
        }
        // Item changes in kept (and moved) sections.
        let editable = (0..<oldCount).filter { role[$0] == 0 || role[$0] == 3 }
        var used = Set<ItemPath>()
        var removedPer = [Int: Int](), insertedPer = [Int: Int]()
        var pendingMoves: [ItemPath] = [], inserts = 0
        for _ in 0..<rng.int(0...changes) {
            guard let s = editable.randomElement(using: &rng), !sections[s].isEmpty else { inserts += 1; continue }
            let path = ItemPath(section: s, item: rng.int(0...(sections[s].count - 1)))
            guard used.insert(path).inserted else { continue }
            switch rng.int(0...3) {
            case 0: batch.deleteItems([path]); removedPer[s, default: 0] += 1
            case 1:
                var item = rows.item(&rng); item.id = sections[s][path.item].id
                batch.reloadItem(at: path, with: item)
            case 2: pendingMoves.append(path); removedPer[s, default: 0] += 1
            default: inserts += 1
            }
        }
        // New-side positions: moves and inserts into sections fed by a kept or moved old section.
        let targetsNew = (0..<newCount).filter { sourceOfNew[$0] != nil }
        guard !targetsNew.isEmpty else { return batch }
        var arrivals: [(section: Int, move: ItemPath?)] = pendingMoves.map { (targetsNew.randomElement(using: &rng)!, $0) }
        arrivals += (0..<inserts).map { _ in (targetsNew.randomElement(using: &rng)!, nil) }
        for a in arrivals { insertedPer[a.section, default: 0] += 1 }
        var freeSlots: [Int: [Int]] = [:]
        for t in Set(arrivals.map(\.section)) {
            let old = sourceOfNew[t]!
            let count = sections[old].count - (removedPer[old] ?? 0) + insertedPer[t]!
            freeSlots[t] = Array(0..<count).shuffled(using: &rng)
        }
        for a in arrivals {
            let index = freeSlots[a.section]!.removeLast()
            let to = ItemPath(section: a.section, item: index)
            if let from = a.move {
                if from == to { batch.deleteItems([from]); batch.insertItem(rows.item(&rng), at: to) } else { batch.moveItem(from: from, to: to) }
            } else {
                batch.insertItem(rows.item(&rng), at: to)
            }
        }
        return batch
    }
}
