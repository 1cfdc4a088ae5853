import BenchStatistics
import LayoutEngine
import BenchScenarios

/// The rows of a `height-pass` scenario: a feed mixing three row types, each measured by its own
/// template cell (registered by reuse identifier), with the scenario's generated text as content,
/// and the seeded random batches the workload replays.
struct FeedTable {
    var registry = TemplateRegistry()
    let title: ReuseIdentifier
    let titleBody: ReuseIdentifier
    let image: ReuseIdentifier
    var model: TableModel
    private var nextID: Int
    private var texts: ItemTexts
    private var rng: SplitMix64
    /// With constraint templates (`distribution: "template"`): the identifier of each template.
    private var templated: [ReuseIdentifier] = []

    /// Row `i` of `items` gets id `i + 1`, a row type drawn from `seed` (half title + body, three
    /// tenths title only, a fifth image + caption) and the text of item `i`.
    /// `text` measures the labels that name a font (docs/text.md); the copies of a table share it.
    init(items: GeneratedItems, seed: Int, text: (any LabelTextMeasuring)? = nil) throws {
        title = registry.register(RowTemplate(layout: .title), forReuseIdentifier: "title")
        titleBody = registry.register(
            RowTemplate(layout: .titleAndBody(spacing: 4), accessory: .disclosureIndicator), forReuseIdentifier: "title-body")
        image = registry.register(
            RowTemplate(layout: .imageWithCaption(aspectRatio: 16.0 / 9.0, spacing: 6), accessory: .custom(width: 24)),
            forReuseIdentifier: "image")
        texts = items.texts ?? ItemTexts()
        rng = SplitMix64(seed: UInt64(seed), stream: 7)
        nextID = 1
        var sections: [[TableItem]] = []
        let data = items.data
        if let rows = items.templated {
            // Each row keeps its template, text and detail; its cell solves the template's constraints.
            for template in rows.templates {
                templated.append(try registry.register(constraints: template, forReuseIdentifier: "template:" + template.name, text: text))
            }
            for s in 0..<data.sectionCount {
                var section: [TableItem] = []
                section.reserveCapacity(data.itemCount(inSection: s))
                for global in data.itemRange(inSection: s) {
                    let content = RowContent(text: texts.string(at: global), detail: rows.details.string(at: global))
                    section.append(TableItem(id: nextID, reuseIdentifier: templated[rows.kinds[global]], content: content))
                    nextID += 1
                }
                sections.append(section)
            }
            model = try TableModel(sections: sections)
            return
        }
        for s in 0..<data.sectionCount {
            var rows: [TableItem] = []
            rows.reserveCapacity(data.itemCount(inSection: s))
            for global in data.itemRange(inSection: s) { rows.append(Self.row(text: texts.string(at: global), id: &nextID, rng: &rng, kinds: (title, titleBody, image))) }
            sections.append(rows)
        }
        model = try TableModel(sections: sections)
    }

    private static func row(
        text: String, id: inout Int, rng: inout SplitMix64, kinds: (ReuseIdentifier, ReuseIdentifier, ReuseIdentifier)
    ) -> TableItem {
        defer { id += 1 }
        let draw = rng.nextInt(in: 0...9)
        if draw < 5 {
            // The first six words are the title, the rest the body.
            let words = text.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
            let title = words.prefix(6).joined(separator: " ")
            let body = words.count > 6 ? String(words[6]) : ""
            return TableItem(id: id, reuseIdentifier: kinds.1, content: RowContent(text: title, detail: body))
        }
        if draw < 8 { return TableItem(id: id, reuseIdentifier: kinds.0, content: RowContent(text: text)) }
        let caption = text.split(separator: " ", maxSplits: 12, omittingEmptySubsequences: false).prefix(12).joined(separator: " ")
        return TableItem(id: id, reuseIdentifier: kinds.2, content: RowContent(text: caption))
    }

    /// A new row with fresh text and a new id.
    mutating func newRow() -> TableItem {
        if !templated.isEmpty {
            let kind = templated[rng.nextInt(in: 0...(templated.count - 1))]
            var text: [UInt8] = [], detail: [UInt8] = []
            WordGenerator.appendWords(rng.nextInt(in: 4...40), to: &text, using: &rng)
            WordGenerator.appendWords(rng.nextInt(in: 4...40), to: &detail, using: &rng)
            defer { nextID += 1 }
            return TableItem(id: nextID, reuseIdentifier: kind,
                             content: RowContent(text: String(decoding: text, as: UTF8.self), detail: String(decoding: detail, as: UTF8.self)))
        }
        var bytes: [UInt8] = []
        WordGenerator.appendWords(rng.nextInt(in: 4...40), to: &bytes, using: &rng)
        return Self.row(text: String(decoding: bytes, as: UTF8.self), id: &nextID, rng: &rng, kinds: (title, titleBody, image))
    }

    /// `count` random batches replayed from the current model, each valid for the model the
    /// previous ones leave. Most batches hold `changes` item changes (deletes, reloads, moves over
    /// any distance, inserts); every eighth, when there are at least four sections, deletes two
    /// sections and inserts two new ones (the case FD's cache gets wrong). Returns the batches and
    /// their plans.
    mutating func randomBatches(count: Int, changes: Int) throws -> [(BatchUpdate, BatchPlan)] {
        var model = self.model
        var result: [(BatchUpdate, BatchPlan)] = []
        for step in 0..<count {
            let batch = step % 8 == 7 && model.sectionCount >= 4 ? sectionBatch(model) : itemBatch(model, changes: changes)
            result.append((batch, try model.perform(batch)))
        }
        return result
    }

    private mutating func sectionBatch(_ model: TableModel) -> BatchUpdate {
        var batch = BatchUpdate()
        let count = model.sectionCount
        let a = rng.nextInt(in: 0...(count - 1))
        var b = rng.nextInt(in: 0...(count - 2))
        if b >= a { b += 1 }
        batch.deleteSections([min(a, b), max(a, b)])
        let first = rng.nextInt(in: 0...(count - 1))
        var second = rng.nextInt(in: 0...(count - 2))
        if second >= first { second += 1 }
        for index in [first, second] { batch.insertSection((0..<rng.nextInt(in: 2...12)).map { _ in newRow() }, at: index) }
        return batch
    }

    private mutating func itemBatch(_ model: TableModel, changes: Int) -> BatchUpdate {
        var batch = BatchUpdate()
        guard model.itemCount > 0 else { return batch }
        var used = Set<ItemPath>()
        var removed = [Int: Int](), arrivals: [(section: Int, move: ItemPath?)] = []
        for _ in 0..<changes {
            let s = rng.nextInt(in: 0...(model.sectionCount - 1))
            let kind = rng.nextInt(in: 0...3)
            if kind == 3 || model.itemCount(inSection: s) == 0 {
                arrivals.append((s, nil))
                continue
            }
            let path = ItemPath(section: s, item: rng.nextInt(in: 0...(model.itemCount(inSection: s) - 1)))
            guard used.insert(path).inserted else { continue }
            switch kind {
            case 0:
                batch.deleteItems([path])
                removed[s, default: 0] += 1
            case 1:
                var row = newRow()
                row.id = model[path].id
                batch.reloadItem(at: path, with: row)
            default:
                removed[s, default: 0] += 1
                arrivals.append((rng.nextInt(in: 0...(model.sectionCount - 1)), path))
            }
        }
        var arriving = [Int: Int]()
        for arrival in arrivals { arriving[arrival.section, default: 0] += 1 }
        var taken = Set<ItemPath>()
        for arrival in arrivals {
            let newCount = model.itemCount(inSection: arrival.section) - (removed[arrival.section] ?? 0) + arriving[arrival.section]!
            var to: ItemPath
            repeat { to = ItemPath(section: arrival.section, item: rng.nextInt(in: 0...(newCount - 1))) } while !taken.insert(to).inserted
            if let from = arrival.move, from != to {
                batch.moveItem(from: from, to: to)
            } else if let from = arrival.move {
                // A move onto itself is refused: delete and insert a new row instead.
                batch.deleteItems([from])
                batch.insertItem(newRow(), at: to)
            } else {
                batch.insertItem(newRow(), at: to)
            }
        }
        return batch
    }
}
