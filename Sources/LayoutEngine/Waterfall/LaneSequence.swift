/// The items of one section under `stable-lanes`, in index order: chunks of at most
/// `chunkCapacity` items, and over them a counted summary tree in flat arrays, so that an
/// insert, a delete or a height change anywhere is O(chunk + lanes · log n) and never moves the
/// rest of the section.
///
/// **The summary of a run of items** is the map from the lane state before the run (each lane's
/// bottom and whether it holds an item) to the state after it. Without a full-width item it adds,
/// per lane, the run's heights plus `lineSpacing` per item (`prefix`), less one `lineSpacing` when
/// the lane held nothing before (occupancy: the first item of a lane gets no spacing). With one, it
/// is "apply the prefix up to the first full-width item, take the tallest lane (plus `lineSpacing`
/// when any lane holds an item), add `span` (from that item's top to the last full-width item's
/// bottom), then add `suffix` per lane" — a max-plus map, so summaries compose associatively
/// (`combine`). A node stores its item count, `hasBarrier`, `span`, and per lane `prefix`,
/// `occupies` (the prefix puts an item in the lane) and `suffix`: O(lanes) per node, with
/// `chunkCapacity` at least 16 lanes, so the tree costs at most about 9 bytes per item.
///
/// List and flow sections have no lanes (`geometry == nil`): the sequence only counts and stores
/// their items, and the updater lays them out in O(section) as before.
struct LaneSequence {
    /// The lane of an item that spans all columns (and of a list or flow item that does).
    static let fullWidth: Int32 = -1
    /// The lane of a list or flow item that does not span.
    static let noLane: Int32 = -2

    /// The waterfall's columns and spacing; nil for list and flow sections.
    let geometry: WaterfallGeometry?
    let laneCount: Int
    let lineSpacing: Double
    /// Most items per chunk; chunks are built half full so that middle inserts rarely split.
    let chunkCapacity: Int
    private(set) var chunks: [LaneChunk] = []

    // The summary tree: node 1 is the root, the leaves `leafCount ..< 2 * leafCount` stand for
    // `chunks` in order (leaves past the last chunk are empty, the identity summary).
    private var leafCount = 1
    private var itemCounts: [Int] = [0, 0]
    private var hasBarrier: [Bool] = [false, false]
    private var span: [Double] = [0, 0]
    /// Per node and lane, at `node * laneCount + lane`.
    private var prefix: [Double] = []
    private var occupies: [Bool] = []
    private var suffix: [Double] = []

    /// The default chunk capacity for `lanes` lanes: 1,024 items, or 16 per lane when wider.
    static func defaultChunkCapacity(lanes: Int) -> Int { Swift.max(1024, 16 * lanes) }

    init(geometry: WaterfallGeometry?, chunkCapacity: Int? = nil) {
        self.geometry = geometry
        laneCount = geometry?.columns.count ?? 0
        lineSpacing = geometry?.lineSpacing ?? 0
        self.chunkCapacity = Swift.max(2, chunkCapacity ?? Self.defaultChunkCapacity(lanes: laneCount))
        rebuildTree()
    }

    /// The number of items.
    @inlinable var count: Int { itemCounts[1] }

    // MARK: Reading

    /// The chunk holding item `index` and its offset there; `index == count` gives the end of the
    /// last chunk. O(log chunks).
    func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        if index >= count { return (Swift.max(0, chunks.count - 1), chunks.last?.count ?? 0) }
        var node = 1, offset = index
        while node < leafCount {
            let left = 2 * node
            if offset < itemCounts[left] { node = left } else { offset -= itemCounts[left]; node = left + 1 }
        }
        return (node - leafCount, offset)
    }

    /// Width, height and lane of item `index`.
    func item(_ index: Int) -> (width: Double, height: Double, lane: Int32) {
        let (chunk, offset) = locate(index)
        return (chunks[chunk].widths[offset], chunks[chunk].heights[offset], chunks[chunk].lanes[offset])
    }

    /// Brings `state` (the lane state at the section's items-region top) to the state just before
    /// item `index`: the summaries of the subtrees left of it, then the items before it in its
    /// chunk. O(lanes · log n + chunk). A waterfall section only.
    func advance(_ state: inout WaterfallSectionLayout.ColumnState, toItem index: Int) {
        var node = 1, offset = Swift.min(index, count)
        while node < leafCount {
            let left = 2 * node
            if offset < itemCounts[left] {
                node = left
            } else {
                apply(node: left, to: &state)
                offset -= itemCounts[left]
                node = left + 1
            }
        }
        let chunk = node - leafCount
        if offset > 0 { place(chunk: chunk, items: 0..<offset, on: &state) }
    }

    /// Applies the whole section to `state`: its lanes' bottoms after the last item.
    func advanceToEnd(_ state: inout WaterfallSectionLayout.ColumnState) {
        apply(node: 1, to: &state)
    }

    /// The first chunk that reaches down to `y` (its tallest lane ends at or below `y` after it;
    /// `chunks.count` when none does) and the index of its first item, with `state` brought to
    /// the lane state at its start. Lane bottoms only grow along the section, so the chunks
    /// before it hold no item that reaches past `y`. O(lanes · log n); `scratch` must have as
    /// many lanes as `state`.
    func firstChunk(
        endingBelow y: Double, state: inout WaterfallSectionLayout.ColumnState,
        scratch: inout WaterfallSectionLayout.ColumnState
    ) -> (chunk: Int, firstItem: Int) {
        var node = 1, firstItem = 0
        while node < leafCount {
            let left = 2 * node
            for c in 0..<laneCount {
                scratch.bottoms[c] = state.bottoms[c]
                scratch.occupied[c] = state.occupied[c]
            }
            apply(node: left, to: &scratch)
            if itemCounts[left] > 0, scratch.tallest >= y {
                node = left
            } else {
                swap(&state, &scratch)
                firstItem += itemCounts[left]
                node = left + 1
            }
        }
        return (Swift.min(node - leafCount, chunks.count), firstItem)
    }

    /// Places items `range` of chunk `chunk` on `state` in order, by the rules of `WaterfallCursor`.
    func place(chunk: Int, items range: Range<Int>, on state: inout WaterfallSectionLayout.ColumnState) {
        guard let geometry, !range.isEmpty else { return }
        let chunk = chunks[chunk]
        state.withCursor(geometry) { cursor in
            chunk.heights.withUnsafeBufferPointer { heights in
                chunk.lanes.withUnsafeBufferPointer { lanes in
                    for i in range {
                        let lane = Int(lanes[i])
                        if lane < 0 {
                            _ = cursor.placeFullWidth(height: heights[i])
                        } else {
                            _ = cursor.place(height: heights[i], inColumn: lane)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with each chunk in order.
    func forEachChunk(_ body: (LaneChunk) throws -> Void) rethrows {
        for chunk in chunks { try body(chunk) }
    }

    // MARK: Changes

    /// Replaces every item (a section laid out afresh): chunks half full, the tree rebuilt. O(n).
    mutating func replaceAll(widths: [Double], heights: [Double], lanes: [Int32]) {
        chunks.removeAll()
        let fill = Swift.max(1, chunkCapacity / 2)
        var start = 0
        while start < heights.count {
            let end = Swift.min(heights.count, start + fill)
            var chunk = LaneChunk(capacity: chunkCapacity)
            chunk.widths.append(contentsOf: widths[start..<end])
            chunk.heights.append(contentsOf: heights[start..<end])
            chunk.lanes.append(contentsOf: lanes[start..<end])
            chunks.append(chunk)
            start = end
        }
        rebuildTree()
    }

    /// Inserts `items` with the given lanes so that the first gets index `index`. Only the chunk
    /// at `index` moves (split when it overflows); its summary and its ancestors are recomputed.
    mutating func insert(_ items: [ItemSize], lanes: [Int32], at index: Int) {
        guard !items.isEmpty else { return }
        if chunks.isEmpty { chunks.append(LaneChunk(capacity: chunkCapacity)) }
        let (c, offset) = locate(index)
        let oldChunkCount = chunks.count
        chunks[c].insert(items, lanes: lanes, at: offset)
        if chunks[c].count > chunkCapacity {
            // The last chunk (appends) keeps full chunks; others split into halves.
            let piece = c == chunks.count - 1 ? chunkCapacity : Swift.max(1, chunkCapacity / 2)
            var pieces: [LaneChunk] = []
            var start = piece
            while start < chunks[c].count {
                pieces.append(LaneChunk(capacity: chunkCapacity))
                let end = Swift.min(chunks[c].count, start + piece)
                pieces[pieces.count - 1].widths.append(contentsOf: chunks[c].widths[start..<end])
                pieces[pieces.count - 1].heights.append(contentsOf: chunks[c].heights[start..<end])
                pieces[pieces.count - 1].lanes.append(contentsOf: chunks[c].lanes[start..<end])
                start = end
            }
            chunks[c].removeSubrange(piece..<chunks[c].count)
            chunks.insert(contentsOf: pieces, at: c + 1)
        }
        refresh(from: c, oldChunkCount: oldChunkCount)
    }

    /// Removes `count` items from `index` on. The chunks they were in shrink (an emptied chunk is
    /// dropped, a chunk under an eighth full merges with a neighbour that has room).
    mutating func remove(at index: Int, count removed: Int) {
        guard removed > 0 else { return }
        let oldChunkCount = chunks.count
        var (c, offset) = locate(index)
        let first = c
        var remaining = removed
        while remaining > 0 {
            let take = Swift.min(remaining, chunks[c].count - offset)
            chunks[c].removeSubrange(offset..<(offset + take))
            remaining -= take
            c += 1
            offset = 0
        }
        var last = c - 1
        // Drop emptied chunks, then merge a small survivor into a neighbour.
        var k = last
        while k >= first {
            if chunks[k].count == 0 { chunks.remove(at: k); last -= 1 }
            k -= 1
        }
        var changed = first
        let small = Swift.max(1, chunkCapacity / 8)
        for k in Swift.max(first, 0)...Swift.max(first, last) where k < chunks.count && chunks[k].count < small {
            if k + 1 < chunks.count, chunks[k].count + chunks[k + 1].count <= chunkCapacity {
                chunks[k].append(contentsOf: chunks[k + 1])
                chunks.remove(at: k + 1)
            } else if k > 0, chunks[k - 1].count + chunks[k].count <= chunkCapacity {
                chunks[k - 1].append(contentsOf: chunks[k])
                chunks.remove(at: k)
                changed = Swift.min(changed, k - 1)
            }
            break
        }
        refresh(from: Swift.min(changed, Swift.max(0, chunks.count - 1)), oldChunkCount: oldChunkCount, through: last)
    }

    /// Sets the height of item `index`. O(chunk + lanes · log n).
    mutating func setHeight(_ height: Double, at index: Int) {
        let (c, offset) = locate(index)
        chunks[c].heights[offset] = height
        refresh(from: c, oldChunkCount: chunks.count)
    }

    // MARK: The summary tree

    /// Recomputes the leaves of chunks `from...` that may have changed — only `from` (or through
    /// `through`) when the chunk count stayed, every later one when chunks were inserted or
    /// removed — and their ancestors. Rebuilds the tree when the chunks outgrow its leaves.
    private mutating func refresh(from first: Int, oldChunkCount: Int, through last: Int? = nil) {
        if chunks.count > leafCount || (leafCount > 8 && chunks.count * 4 < leafCount) {
            rebuildTree()
            return
        }
        let end = chunks.count == oldChunkCount ? Swift.max(first, last ?? first) + 1 : Swift.max(chunks.count, oldChunkCount)
        guard first < end else { return }
        for c in first..<end { computeLeaf(leafCount + c) }
        var low = (leafCount + first) >> 1, high = (leafCount + end - 1) >> 1
        while low >= 1 {
            for node in low...high { combine(node) }
            low >>= 1
            high >>= 1
        }
    }

    /// Sizes the tree for the chunks (leaves: a power of two) and computes every node. O(chunks · lanes).
    private mutating func rebuildTree() {
        leafCount = 1
        while leafCount < chunks.count { leafCount <<= 1 }
        let nodes = 2 * leafCount
        itemCounts = [Int](repeating: 0, count: nodes)
        hasBarrier = [Bool](repeating: false, count: nodes)
        span = [Double](repeating: 0, count: nodes)
        prefix = [Double](repeating: 0, count: nodes * laneCount)
        occupies = [Bool](repeating: false, count: nodes * laneCount)
        suffix = [Double](repeating: 0, count: nodes * laneCount)
        for c in 0..<leafCount { computeLeaf(leafCount + c) }
        var node = leafCount - 1
        while node >= 1 { combine(node); node -= 1 }
    }

    /// The summary of one chunk, item by item (the identity past the last chunk).
    private mutating func computeLeaf(_ node: Int) {
        let chunk = node - leafCount
        let lanes = laneCount, base = node * lanes, spacing = lineSpacing
        for c in 0..<lanes {
            prefix[base + c] = 0
            occupies[base + c] = false
            suffix[base + c] = 0
        }
        hasBarrier[node] = false
        span[node] = 0
        guard chunk < chunks.count else { itemCounts[node] = 0; return }
        itemCounts[node] = chunks[chunk].count
        guard lanes > 0 else { return }
        var barrier = false, runSpan = 0.0
        chunks[chunk].heights.withUnsafeBufferPointer { heights in
            chunks[chunk].lanes.withUnsafeBufferPointer { itemLanes in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    occupies.withUnsafeMutableBufferPointer { occupies in
                        suffix.withUnsafeMutableBufferPointer { suffix in
                            for i in 0..<heights.count {
                                let lane = Int(itemLanes[i])
                                if lane >= 0 {
                                    if barrier {
                                        suffix[base + lane] += heights[i] + spacing
                                    } else {
                                        prefix[base + lane] += heights[i] + spacing
                                        occupies[base + lane] = true
                                    }
                                } else if !barrier {
                                    barrier = true
                                    runSpan = heights[i]
                                } else {
                                    var tallest = suffix[base]
                                    suffix[base] = 0
                                    for c in 1..<lanes {
                                        tallest = Swift.max(tallest, suffix[base + c])
                                        suffix[base + c] = 0
                                    }
                                    runSpan += tallest + spacing + heights[i]
                                }
                            }
                        }
                    }
                }
            }
        }
        hasBarrier[node] = barrier
        span[node] = runSpan
    }

    /// A node's summary from its children's: the left run, then the right run.
    private mutating func combine(_ node: Int) {
        let left = 2 * node, right = left + 1
        itemCounts[node] = itemCounts[left] + itemCounts[right]
        let lanes = laneCount
        guard lanes > 0 else { return }
        let n = node * lanes, l = left * lanes, r = right * lanes
        let leftBarrier = hasBarrier[left], rightBarrier = hasBarrier[right]
        hasBarrier[node] = leftBarrier || rightBarrier
        prefix.withUnsafeMutableBufferPointer { prefix in
            occupies.withUnsafeMutableBufferPointer { occupies in
                suffix.withUnsafeMutableBufferPointer { suffix in
                    if !leftBarrier {
                        for c in 0..<lanes {
                            prefix[n + c] = prefix[l + c] + prefix[r + c]
                            occupies[n + c] = occupies[l + c] || occupies[r + c]
                            suffix[n + c] = rightBarrier ? suffix[r + c] : 0
                        }
                        span[node] = rightBarrier ? span[right] : 0
                    } else {
                        for c in 0..<lanes {
                            prefix[n + c] = prefix[l + c]
                            occupies[n + c] = occupies[l + c]
                        }
                        if !rightBarrier {
                            for c in 0..<lanes { suffix[n + c] = suffix[l + c] + prefix[r + c] }
                            span[node] = span[left]
                        } else {
                            var tallest = suffix[l] + prefix[r]
                            for c in 1..<lanes { tallest = Swift.max(tallest, suffix[l + c] + prefix[r + c]) }
                            span[node] = span[left] + tallest + lineSpacing + span[right]
                            for c in 0..<lanes { suffix[n + c] = suffix[r + c] }
                        }
                    }
                }
            }
        }
    }

    /// Applies node `node`'s summary to `state`. O(lanes).
    private func apply(node: Int, to state: inout WaterfallSectionLayout.ColumnState) {
        let lanes = laneCount, base = node * lanes, spacing = lineSpacing
        guard lanes > 0, itemCounts[node] > 0 else { return }
        let barrier = hasBarrier[node]
        let nodeSpan = span[node]
        prefix.withUnsafeBufferPointer { prefix in
            occupies.withUnsafeBufferPointer { occupies in
                suffix.withUnsafeBufferPointer { suffix in
                    state.bottoms.withUnsafeMutableBufferPointer { bottoms in
                        state.occupied.withUnsafeMutableBufferPointer { occupied in
                            var tallest = -Double.infinity, anyOccupied = false
                            for c in 0..<lanes {
                                if occupies[base + c] {
                                    bottoms[c] += occupied[c] ? prefix[base + c] : prefix[base + c] - spacing
                                    occupied[c] = true
                                }
                                tallest = Swift.max(tallest, bottoms[c])
                                anyOccupied = anyOccupied || occupied[c]
                            }
                            guard barrier else { return }
                            let bottom = (anyOccupied ? tallest + spacing : tallest) + nodeSpan
                            for c in 0..<lanes {
                                bottoms[c] = bottom + suffix[base + c]
                                occupied[c] = true
                            }
                        }
                    }
                }
            }
        }
    }
}
