extension LaneSequence: InvariantChecking {
    /// The first broken invariant: the leaves are a power of two of chunks, each chunk's three
    /// arrays agree and hold at most `chunkCapacity` items with lanes its section can have, the
    /// levels of the summary tree have the sizes the fanout gives, and every node's count and
    /// summary equal the ones computed afresh from the chunks (the same arithmetic in the same
    /// order, so they must be identical, not merely close).
    func invariantViolation() -> String? {
        let leaves = chunks.count
        guard leaves > 0, leaves & (leaves - 1) == 0 else { return "\(leaves) chunks, not a power of two" }
        for (c, chunk) in chunks.enumerated() {
            guard chunk.widths.count == chunk.count, chunk.lanes.count == chunk.count else {
                return "chunk \(c) has \(chunk.widths.count) widths, \(chunk.heights.count) heights, \(chunk.lanes.count) lanes"
            }
            guard chunk.count <= chunkCapacity else { return "chunk \(c) holds \(chunk.count) items, over \(chunkCapacity)" }
            for (i, lane) in chunk.lanes.enumerated() {
                let valid = laneCount > 0
                    ? lane == Self.fullWidth || (lane >= 0 && Int(lane) < laneCount)
                    : lane == Self.fullWidth || lane == Self.noLane
                guard valid else { return "chunk \(c) item \(i) has lane \(lane) in a section of \(laneCount) lanes" }
            }
        }
        guard levelCounts.count == levelStarts.count, levelCounts.first == leaves, levelCounts.last == 1,
              root == levelStarts[levelStarts.count - 1]
        else {
            return "tree levels \(levelCounts) starting at \(levelStarts), root \(root), for \(leaves) leaves"
        }
        for h in 1..<levelCounts.count {
            let expected = (levelCounts[h - 1] + Self.fanout - 1) / Self.fanout
            guard levelCounts[h] == expected, levelStarts[h] == levelStarts[h - 1] + levelCounts[h - 1] else {
                return "tree level \(h) has \(levelCounts[h]) nodes from \(levelStarts[h]), expected \(expected)"
            }
        }
        var fresh = self
        fresh.rebuildTree()
        if let node = itemCounts.indices.first(where: { itemCounts[$0] != fresh.itemCounts[$0] }) {
            return "node \(node) counts \(itemCounts[node]) items, its children \(fresh.itemCounts[node])"
        }
        if let k = summaries.indices.first(where: { summaries[$0] != fresh.summaries[$0] }) {
            return "node \(k / summaryStride) has summary value \(summaries[k]) at \(k % summaryStride), recomputed \(fresh.summaries[k])"
        }
        return nil
    }
}

extension StableLanesUpdater: InvariantChecking {
    /// The invariants of every section's `LaneSequence` (the frames are materialised on demand
    /// and checked when they are).
    public func invariantViolation() -> String? {
        storage.firstSectionViolation()
    }
}

extension StableLanesStorage {
    func firstSectionViolation() -> String? {
        for (s, section) in sections.enumerated() {
            if let violation = section.invariantViolation() { return "section \(s): \(violation)" }
        }
        return nil
    }
}
