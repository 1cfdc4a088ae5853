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
/// (`append`). A node stores its item count, `hasBarrier`, `span`, and per lane `prefix`,
/// `occupies` (the prefix puts an item in the lane) and `suffix`, packed together: O(lanes) per
/// node, with `chunkCapacity` at least 16 per lane, so the tree stays within a few bytes per item.
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

    // The summary tree, level by level in flat arrays: level 0 has one node per chunk, each node
    // of level h + 1 summarises up to `fanout` consecutive nodes of level h, and the last level
    // is the root. Node j of level h is at `levelStarts[h] + j`. A wide fanout keeps a descent to
    // a few levels, each a few consecutive cache lines: few cache and TLB misses when cold.
    static let fanout = 8
    var levelStarts: [Int] = [0]
    var levelCounts: [Int] = [1]
    var root = 0
    var itemCounts: [Int] = [0]
    /// Per node, `summaryStride` doubles in one place (one or two cache lines for a few lanes):
    /// `span`, `hasBarrier` (0 or 1), then per lane `prefix`, `occupies` (0 or 1), `suffix`.
    var summaries: [Double] = []
    var summaryStride: Int { 2 + 3 * laneCount }

    /// The default chunk capacity for `lanes` lanes: 256 items, or 16 per lane when wider.
    static func defaultChunkCapacity(lanes: Int) -> Int { Swift.max(256, 16 * lanes) }

    init(geometry: WaterfallGeometry?, chunkCapacity: Int? = nil) {
        self.geometry = geometry
        laneCount = geometry?.columns.count ?? 0
        lineSpacing = geometry?.lineSpacing ?? 0
        self.chunkCapacity = Swift.max(2, chunkCapacity ?? Self.defaultChunkCapacity(lanes: laneCount))
        spread([])
    }

    /// The number of items.
    var count: Int { itemCounts[root] }

    // MARK: Reading

    /// The chunk holding item `index` and its offset there; `index == count` gives the end of the
    /// last chunk. O(fanout · log chunks).
    func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        if index >= count { return (chunks.count - 1, chunks[chunks.count - 1].count) }
        return descend(to: index) { _ in }
    }

    /// Descends from the root to the chunk holding item `index` (< count), calling `skip` with
    /// each node whose run lies wholly before it, in order; returns the chunk and the offset there.
    @inline(__always)
    private func descend(to index: Int, skipping skip: (Int) -> Void) -> (chunk: Int, offset: Int) {
        var node = 0, offset = index
        var level = levelStarts.count - 1
        while level > 0 {
            let below = levelStarts[level - 1]
            var child = node * Self.fanout
            let end = Swift.min(child + Self.fanout, levelCounts[level - 1])
            while child < end - 1, offset >= itemCounts[below + child] {
                skip(below + child)
                offset -= itemCounts[below + child]
                child += 1
            }
            node = child
            level -= 1
        }
        return (node, offset)
    }

    /// Width, height and lane of item `index`.
    func item(_ index: Int) -> (width: Double, height: Double, lane: Int32) {
        let (chunk, offset) = locate(index)
        return (chunks[chunk].widths[offset], chunks[chunk].heights[offset], chunks[chunk].lanes[offset])
    }

    /// Brings `state` (the lane state at the section's items-region top) to the state just before
    /// item `index`: the summaries of the runs before it on the way down, then the items before it
    /// in its chunk. O(lanes · fanout · log n + chunk). A waterfall section only.
    func advance(_ state: inout WaterfallSectionLayout.ColumnState, toItem index: Int) {
        guard index < count else { return advanceToEnd(&state) }
        let (node, offset) = descend(to: index) { apply(node: $0, to: &state) }
        if offset > 0 { place(chunk: node, items: 0..<offset, on: &state) }
    }

    /// The order state before item `index` (`ColumnState.startOrder`: each lane's last item
    /// index, then the auto-placement cursor), read back from the kept lanes: walking back from
    /// item `index - 1` until every lane has been seen, a full-width item or the section's start.
    /// O(lanes · log n + the items walked), up to O(index) when a lane has held nothing for long;
    /// only the `last-index` and `grid-lanes` rules need it.
    func order(before index: Int) -> [Int] {
        let lanes = laneCount
        var order = WaterfallSectionLayout.ColumnState.startOrder(columns: lanes)
        guard index > 0, lanes > 0 else { return order }
        var (chunk, offset) = locate(index - 1)
        var i = index - 1
        var unseen = lanes
        let last = Int(chunks[chunk].lanes[offset])
        order[lanes] = last >= 0 ? last + 1 : lanes
        while i >= 0 && unseen > 0 {
            let lane = Int(chunks[chunk].lanes[offset])
            if lane >= 0 {
                if order[lane] < 0 {
                    order[lane] = i
                    unseen -= 1
                }
            } else {
                for c in 0..<lanes where order[c] < 0 { order[c] = i }
                unseen = 0
            }
            i -= 1
            offset -= 1
            while offset < 0 && chunk > 0 {
                chunk -= 1
                offset = chunks[chunk].count - 1
            }
        }
        return order
    }

    /// Applies the whole section to `state`: its lanes' bottoms after the last item.
    func advanceToEnd(_ state: inout WaterfallSectionLayout.ColumnState) {
        apply(node: root, to: &state)
    }

    /// The first chunk that reaches down to `y` (its tallest lane ends at or below `y` after it;
    /// `chunks.count` when none does) and the index of its first item, with `state` brought to
    /// the lane state at its start. Lane bottoms only grow along the section, so the chunks
    /// before it hold no item that reaches past `y`. O(lanes · fanout · log n); `scratch` must
    /// have as many lanes as `state`.
    func firstChunk(
        endingBelow y: Double, state: inout WaterfallSectionLayout.ColumnState,
        scratch: inout WaterfallSectionLayout.ColumnState
    ) -> (chunk: Int, firstItem: Int) {
        var node = 0, firstItem = 0
        var level = levelStarts.count - 1
        while level > 0 {
            let below = levelStarts[level - 1]
            var child = node * Self.fanout
            let end = Swift.min(child + Self.fanout, levelCounts[level - 1])
            var found = false
            while child < end {
                for c in 0..<laneCount {
                    scratch.bottoms[c] = state.bottoms[c]
                    scratch.occupied[c] = state.occupied[c]
                }
                apply(node: below + child, to: &scratch)
                if itemCounts[below + child] > 0, scratch.tallest >= y {
                    found = true
                    break
                }
                swap(&state, &scratch)
                firstItem += itemCounts[below + child]
                child += 1
            }
            guard found else { return (chunks.count, firstItem) }
            node = child
            level -= 1
        }
        return (node, firstItem)
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

    /// Replaces every item (a section laid out afresh): chunks half full, each followed by an
    /// empty one (room to split into), the tree rebuilt. O(n).
    mutating func replaceAll(widths: [Double], heights: [Double], lanes: [Int32]) {
        defer { _checkInvariants() }
        var pieces: [LaneChunk] = []
        let fill = Swift.max(1, chunkCapacity / 2)
        var start = 0
        while start < heights.count {
            let end = Swift.min(heights.count, start + fill)
            var chunk = LaneChunk(capacity: chunkCapacity)
            chunk.widths.append(contentsOf: widths[start..<end])
            chunk.heights.append(contentsOf: heights[start..<end])
            chunk.lanes.append(contentsOf: lanes[start..<end])
            pieces.append(chunk)
            start = end
        }
        spread(pieces)
    }

    /// Lays `pieces` (non-empty chunks in order) out over the leaves with an empty chunk after
    /// each, padded to a power of two, and rebuilds the tree. O(chunks · lanes).
    private mutating func spread(_ pieces: [LaneChunk]) {
        var leaves = 1
        while leaves < 2 * pieces.count { leaves <<= 1 }
        chunks.removeAll(keepingCapacity: true)
        chunks.reserveCapacity(leaves)
        for piece in pieces {
            chunks.append(piece)
            chunks.append(LaneChunk())
        }
        while chunks.count < leaves { chunks.append(LaneChunk()) }
        rebuildTree()
    }

    /// Inserts `items` with the given lanes so that the first gets index `index`. Only the chunk
    /// at `index` moves; when it overflows, its tail moves into an empty chunk beside it (the
    /// chunks up to the nearest empty one shift by one leaf, or all are spread out again when
    /// none is left). Its summary, the shifted leaves' and their ancestors are recomputed.
    mutating func insert(_ items: [ItemSize], lanes: [Int32], at index: Int) {
        guard !items.isEmpty else { return }
        defer { _checkInvariants() }
        var (c, offset) = locate(index)
        if chunks[c].widths.capacity < chunkCapacity { chunks[c].reserve(chunkCapacity) }
        chunks[c].insert(items, lanes: lanes, at: offset)
        var low = c, high = c
        while chunks[c].count > chunkCapacity {
            // Appends (nothing after this chunk) keep it full; elsewhere it splits in half.
            let keep = chunks[(c + 1)...].allSatisfy { $0.count == 0 } ? chunkCapacity : chunkCapacity / 2
            guard let gap = openGap(after: c) else { return repack() }
            c = gap.chunk
            low = Swift.min(low, gap.range.lowerBound)
            high = Swift.max(high, gap.range.upperBound)
            var next = LaneChunk()
            swap(&next, &chunks[c + 1])
            next.reserve(chunkCapacity)
            next.take(from: &chunks[c], from: keep)
            swap(&next, &chunks[c + 1])
            c += 1
        }
        refresh(leaves: low...high)
    }

    /// Spreads the chunks out again (an empty chunk after each), splitting any that overflows
    /// into halves: when no empty chunk is left to split into. O(chunks · lanes), and then
    /// every chunk has room beside it again.
    private mutating func repack() {
        var pieces: [LaneChunk] = []
        for var chunk in chunks where chunk.count > 0 {
            while chunk.count > chunkCapacity {
                var head = LaneChunk(capacity: chunkCapacity)
                head.take(from: &chunk, from: 0, count: chunkCapacity / 2)
                pieces.append(head)
            }
            pieces.append(chunk)
        }
        spread(pieces)
    }

    /// Makes the chunk after `c` empty, shifting the chunks between it and the nearest empty
    /// chunk by one leaf; returns where the chunk that was at `c` is now and the leaves that
    /// moved, or nil when no chunk is empty.
    private mutating func openGap(after c: Int) -> (chunk: Int, range: ClosedRange<Int>)? {
        var right = c + 1, left = c - 1
        while right < chunks.count || left >= 0 {
            if right < chunks.count {
                if chunks[right].count == 0 {
                    // Chunks c+1 ..< right move one leaf right.
                    let empty = chunks.remove(at: right)
                    chunks.insert(empty, at: c + 1)
                    return (c, c...right)
                }
                right += 1
            }
            if left >= 0 {
                if chunks[left].count == 0 {
                    // Chunks left+1 ... c move one leaf left; c is then at c - 1 and c is empty.
                    let empty = chunks.remove(at: left)
                    chunks.insert(empty, at: c)
                    return (c - 1, left...c)
                }
                left -= 1
            }
        }
        return nil
    }

    /// Removes `count` items from `index` on. The chunks they were in shrink, and an emptied
    /// chunk stays as room for later splits; when the items fill under a sixteenth of the leaves'
    /// capacity, the chunks are packed again.
    mutating func remove(at index: Int, count removed: Int) {
        guard removed > 0 else { return }
        defer { _checkInvariants() }
        var (c, offset) = locate(index)
        let first = c
        var remaining = removed
        while remaining > 0 {
            let take = Swift.min(remaining, chunks[c].count - offset)
            if take > 0 { chunks[c].removeSubrange(offset..<(offset + take)) }
            remaining -= take
            c += 1
            offset = 0
        }
        let total = count - removed
        if chunks.count > 8, total * 16 < chunks.count * chunkCapacity {
            var widths: [Double] = [], heights: [Double] = [], lanes: [Int32] = []
            for chunk in chunks {
                widths.append(contentsOf: chunk.widths)
                heights.append(contentsOf: chunk.heights)
                lanes.append(contentsOf: chunk.lanes)
            }
            replaceAll(widths: widths, heights: heights, lanes: lanes)
            return
        }
        refresh(leaves: first...(c - 1))
    }

    /// Sets the height of item `index`. O(chunk + lanes · log n).
    mutating func setHeight(_ height: Double, at index: Int) {
        defer { _checkInvariants() }
        let (c, offset) = locate(index)
        chunks[c].heights[offset] = height
        refresh(leaves: c...c)
    }

    // MARK: The summary tree

    /// Recomputes the leaves `range` and their ancestors. O((range + fanout · log n) · lanes + chunks in range).
    private mutating func refresh(leaves range: ClosedRange<Int>) {
        for c in range { computeLeaf(c) }
        var low = range.lowerBound, high = range.upperBound
        for level in 1..<levelStarts.count {
            low /= Self.fanout
            high /= Self.fanout
            for node in low...high { recompute(level: level, node: node) }
        }
    }

    /// Sizes the tree for the chunks and computes every node. O(chunks · lanes).
    mutating func rebuildTree() {
        levelStarts = [0]
        levelCounts = [chunks.count]
        while levelCounts[levelCounts.count - 1] > 1 {
            levelStarts.append(levelStarts[levelStarts.count - 1] + levelCounts[levelCounts.count - 1])
            levelCounts.append((levelCounts[levelCounts.count - 1] + Self.fanout - 1) / Self.fanout)
        }
        root = levelStarts[levelStarts.count - 1]
        let nodes = root + 1
        itemCounts = [Int](repeating: 0, count: nodes)
        summaries = [Double](repeating: 0, count: laneCount > 0 ? nodes * summaryStride : 0)
        for c in 0..<chunks.count { computeLeaf(c) }
        for level in 1..<levelStarts.count {
            for node in 0..<levelCounts[level] { recompute(level: level, node: node) }
        }
    }

    /// Node `node` of level `level` from its children: the identity, then each child's run in order.
    private mutating func recompute(level: Int, node: Int) {
        let id = levelStarts[level] + node
        itemCounts[id] = 0
        if laneCount > 0 {
            let base = id * summaryStride
            for k in base..<(base + summaryStride) { summaries[k] = 0 }
        }
        let below = levelStarts[level - 1]
        let first = node * Self.fanout, end = Swift.min(first + Self.fanout, levelCounts[level - 1])
        for child in first..<end where itemCounts[below + child] > 0 { append(below + child, to: id) }
    }

    // Offsets in a node's summary.
    private static let spanOffset = 0, barrierOffset = 1, prefixOffset = 2

    /// The summary of one chunk (a leaf: node `node` of level 0), item by item.
    private mutating func computeLeaf(_ node: Int) {
        let chunk = node
        itemCounts[node] = chunks[chunk].count
        let lanes = laneCount, spacing = lineSpacing
        guard lanes > 0 else { return }
        let base = node * summaryStride
        summaries.withUnsafeMutableBufferPointer { all in
            let summary = UnsafeMutableBufferPointer(rebasing: all[base..<(base + 2 + 3 * lanes)])
            for k in 0..<summary.count { summary[k] = 0 }
            let prefix = 2, occupies = 2 + lanes, suffix = 2 + 2 * lanes
            var barrier = false, runSpan = 0.0
            chunks[chunk].heights.withUnsafeBufferPointer { heights in
                chunks[chunk].lanes.withUnsafeBufferPointer { itemLanes in
                    for i in 0..<heights.count {
                        let lane = Int(itemLanes[i])
                        if lane >= 0 {
                            if barrier {
                                summary[suffix + lane] += heights[i] + spacing
                            } else {
                                summary[prefix + lane] += heights[i] + spacing
                                summary[occupies + lane] = 1
                            }
                        } else if !barrier {
                            barrier = true
                            runSpan = heights[i]
                        } else {
                            var tallest = summary[suffix]
                            summary[suffix] = 0
                            for c in 1..<lanes {
                                tallest = Swift.max(tallest, summary[suffix + c])
                                summary[suffix + c] = 0
                            }
                            runSpan += tallest + spacing + heights[i]
                        }
                    }
                }
            }
            summary[Self.barrierOffset] = barrier ? 1 : 0
            summary[Self.spanOffset] = runSpan
        }
    }

    /// Extends node `node`'s run by node `right`'s, which follows it: the summary of the two in order.
    private mutating func append(_ right: Int, to node: Int) {
        itemCounts[node] += itemCounts[right]
        let lanes = laneCount, stride = summaryStride, spacing = lineSpacing
        guard lanes > 0 else { return }
        summaries.withUnsafeMutableBufferPointer { all in
            let n = node * stride, r = right * stride
            let prefix = 2, occupies = 2 + lanes, suffix = 2 + 2 * lanes
            let leftBarrier = all[n + Self.barrierOffset] != 0, rightBarrier = all[r + Self.barrierOffset] != 0
            if !leftBarrier {
                for c in 0..<lanes {
                    all[n + prefix + c] += all[r + prefix + c]
                    all[n + occupies + c] = Swift.max(all[n + occupies + c], all[r + occupies + c])
                    all[n + suffix + c] = rightBarrier ? all[r + suffix + c] : 0
                }
                all[n + Self.spanOffset] = rightBarrier ? all[r + Self.spanOffset] : 0
            } else if !rightBarrier {
                for c in 0..<lanes { all[n + suffix + c] += all[r + prefix + c] }
            } else {
                var tallest = all[n + suffix] + all[r + prefix]
                for c in 1..<lanes { tallest = Swift.max(tallest, all[n + suffix + c] + all[r + prefix + c]) }
                all[n + Self.spanOffset] += tallest + spacing + all[r + Self.spanOffset]
                for c in 0..<lanes { all[n + suffix + c] = all[r + suffix + c] }
            }
            all[n + Self.barrierOffset] = leftBarrier || rightBarrier ? 1 : 0
        }
    }

    /// Applies node `node`'s summary to `state`. O(lanes).
    private func apply(node: Int, to state: inout WaterfallSectionLayout.ColumnState) {
        let lanes = laneCount, spacing = lineSpacing
        guard lanes > 0, itemCounts[node] > 0 else { return }
        let base = node * summaryStride
        summaries.withUnsafeBufferPointer { all in
            let prefix = base + 2, occupies = base + 2 + lanes, suffix = base + 2 + 2 * lanes
            state.bottoms.withUnsafeMutableBufferPointer { bottoms in
                state.occupied.withUnsafeMutableBufferPointer { occupied in
                    var tallest = -Double.infinity, anyOccupied = false
                    for c in 0..<lanes {
                        if all[occupies + c] != 0 {
                            bottoms[c] += occupied[c] ? all[prefix + c] : all[prefix + c] - spacing
                            occupied[c] = true
                        }
                        tallest = Swift.max(tallest, bottoms[c])
                        anyOccupied = anyOccupied || occupied[c]
                    }
                    guard all[base + Self.barrierOffset] != 0 else { return }
                    let bottom = (anyOccupied ? tallest + spacing : tallest) + all[base + Self.spanOffset]
                    for c in 0..<lanes {
                        bottoms[c] = bottom + all[suffix + c]
                        occupied[c] = true
                    }
                }
            }
        }
    }
}
