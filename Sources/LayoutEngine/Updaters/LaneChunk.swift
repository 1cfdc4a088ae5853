/// One chunk of a `LaneSequence`: a run of consecutive items of a section, in index order, as
/// three parallel flat arrays (at most `LaneSequence.chunkCapacity` items).
struct LaneChunk {
    var widths: [Double] = []
    var heights: [Double] = []
    /// Per item: its lane (>= 0), `LaneSequence.fullWidth` for an item that spans all columns,
    /// or `LaneSequence.noLane` for a list or flow item that does not.
    var lanes: [Int32] = []

    @inlinable var count: Int { heights.count }

    /// An empty chunk that holds no storage (room for a later split).
    init() {}

    /// A chunk with room for `capacity` items, so inserts until it splits do not reallocate.
    init(capacity: Int) { reserve(capacity) }

    mutating func reserve(_ capacity: Int) {
        widths.reserveCapacity(capacity)
        heights.reserveCapacity(capacity)
        lanes.reserveCapacity(capacity)
    }

    /// Moves `count` items of `other` from `start` on (all from `start` when nil) to the front of
    /// this chunk.
    mutating func take(from other: inout LaneChunk, from start: Int, count: Int? = nil) {
        let end = count.map { start + $0 } ?? other.count
        widths.insert(contentsOf: other.widths[start..<end], at: 0)
        heights.insert(contentsOf: other.heights[start..<end], at: 0)
        lanes.insert(contentsOf: other.lanes[start..<end], at: 0)
        other.removeSubrange(start..<end)
    }

    /// Inserts `items` with their lanes at `offset` (one memmove per array, then one pass).
    mutating func insert(_ items: [ItemSize], lanes newLanes: [Int32], at offset: Int) {
        let count = items.count
        if count == 1 {
            widths.insert(items[0].width, at: offset)
            heights.insert(items[0].height, at: offset)
            lanes.insert(newLanes[0], at: offset)
            return
        }
        if offset == self.count {
            widths.append(contentsOf: repeatElement(0, count: count))
            heights.append(contentsOf: repeatElement(0, count: count))
            lanes.append(contentsOf: repeatElement(0, count: count))
        } else {
            widths.replaceSubrange(offset..<offset, with: repeatElement(0, count: count))
            heights.replaceSubrange(offset..<offset, with: repeatElement(0, count: count))
            lanes.replaceSubrange(offset..<offset, with: repeatElement(0, count: count))
        }
        widths.withUnsafeMutableBufferPointer { widths in
            heights.withUnsafeMutableBufferPointer { heights in
                lanes.withUnsafeMutableBufferPointer { lanes in
                    for k in 0..<count {
                        widths[offset + k] = items[k].width
                        heights[offset + k] = items[k].height
                        lanes[offset + k] = newLanes[k]
                    }
                }
            }
        }
    }

    mutating func removeSubrange(_ range: Range<Int>) {
        widths.removeSubrange(range)
        heights.removeSubrange(range)
        lanes.removeSubrange(range)
    }
}
