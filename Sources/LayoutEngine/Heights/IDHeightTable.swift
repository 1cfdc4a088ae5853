/// A hash table from item id to a few heights (one per column), in flat arrays: open
/// addressing with linear probing, at most half full, deletion by backward shift (no
/// tombstones). NaN means "no height". Lookups and updates are O(1) and allocate nothing; this
/// is the storage of the keyed caches (`Dictionary<Int, Double>` costs two to three times as
/// much per lookup, hashing with SipHash).
///
/// Ids usually come from a counter or a database sequence, so the home slot is twice the id
/// (masked): a pass over rows in id order then walks the arrays in order instead of missing the
/// cache on every row (at 30,000 rows a multiplicative hash made a warm pass 3x slower), and
/// consecutive ids leave every other slot free, so a miss or a deletion stops after one probe
/// (with the id itself as the home, a run of consecutive ids fills a stretch of slots and every
/// deletion in it scans to its end). Ids that collide in runs (strides of a power of two) would
/// make probes long, so the first insert that probes more than `maximumProbe` slots switches the
/// table, for good, to a multiplicative (Fibonacci) hash and rehashes.
struct IDHeightTable: UnsharedCopying {
    private static let empty = Int.min
    private(set) var columns: Int
    private var keys: [Int]
    private var values: [Double]
    private var shift: Int
    private var scrambles = false
    private(set) var count = 0
    static let maximumProbe = 32

    init(columns: Int, capacity: Int = 16) {
        self.columns = columns
        var size = 16
        while size < 2 * capacity { size *= 2 }
        keys = [Int](repeating: Self.empty, count: size)
        values = [Double](repeating: .nan, count: size * columns)
        shift = 64 - size.trailingZeroBitCount
    }

    func unsharedCopy() -> IDHeightTable {
        var copy = self
        copy.keys = keys.unsharedCopy()
        copy.values = values.unsharedCopy()
        return copy
    }

    @inline(__always)
    private func home(_ id: Int) -> Int {
        if scrambles {
            return Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
        }
        return (id &<< 1) & (keys.count - 1)
    }

    /// The slot holding `id`, or nil.
    @inline(__always)
    private func slot(of id: Int) -> Int? {
        let mask = keys.count - 1
        var i = home(id)
        while true {
            let key = keys[i]
            if key == id { return i }
            if key == Self.empty { return nil }
            i = (i + 1) & mask
        }
    }

    /// The height of `id` in `column` (NaN if none).
    @inline(__always)
    func height(of id: Int, column: Int) -> Double {
        guard let i = slot(of: id) else { return .nan }
        return values[i * columns + column]
    }

    mutating func setHeight(_ height: Double, of id: Int, column: Int) {
        precondition(id != Self.empty, "Int.min is reserved as the empty key")
        if let i = slot(of: id) {
            values[i * columns + column] = height
            return
        }
        if 2 * (count + 1) > keys.count { rehash(size: keys.count * 2) }
        let mask = keys.count - 1
        var i = home(id), probes = 0
        while keys[i] != Self.empty {
            i = (i + 1) & mask
            probes += 1
        }
        if probes > Self.maximumProbe, !scrambles {
            scrambles = true
            rehash(size: keys.count)
            setHeight(height, of: id, column: column)
            return
        }
        keys[i] = id
        values[i * columns + column] = height
        count += 1
    }

    /// Forgets every height of `id`.
    mutating func remove(_ id: Int) {
        remove(contentsOf: CollectionOfOne(id))
    }

    /// Forgets every height of each id in `ids` (ids not in the table are skipped). The arrays
    /// are opened once for all of them, so a batch's removals cost their probes and nothing else.
    mutating func remove<IDs: Sequence<Int>>(contentsOf ids: IDs) {
        let columns = self.columns, scrambles = self.scrambles, shift = self.shift
        var removed = 0
        keys.withUnsafeMutableBufferPointer { keys in
            values.withUnsafeMutableBufferPointer { values in
                let mask = keys.count - 1
                @inline(__always) func home(_ id: Int) -> Int {
                    scrambles
                        ? Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
                        : (id &<< 1) & mask
                }
                for id in ids {
                    var hole = home(id)
                    while keys[hole] != id {
                        if keys[hole] == Self.empty { break }
                        hole = (hole + 1) & mask
                    }
                    guard keys[hole] == id else { continue }
                    var i = hole
                    while true {
                        i = (i + 1) & mask
                        let key = keys[i]
                        if key == Self.empty { break }
                        // Move the entry back into the hole unless its home lies cyclically in (hole, i].
                        let h = home(key)
                        let stays = hole <= i ? (h > hole && h <= i) : (h > hole || h <= i)
                        if !stays {
                            keys[hole] = key
                            for c in 0..<columns { values[hole * columns + c] = values[i * columns + c] }
                            hole = i
                        }
                    }
                    keys[hole] = Self.empty
                    for c in 0..<columns { values[hole * columns + c] = .nan }
                    removed += 1
                }
            }
        }
        count -= removed
    }

    /// Forgets the heights of one column, for every id (O(capacity)).
    mutating func clear(column: Int) {
        var i = column
        while i < values.count {
            values[i] = .nan
            i += columns
        }
    }

    mutating func removeAll() {
        keys.withUnsafeMutableBufferPointer { $0.update(repeating: Self.empty) }
        values.withUnsafeMutableBufferPointer { $0.update(repeating: .nan) }
        count = 0
    }

    /// Moves every entry into fresh arrays of `size` slots (with the current hash).
    private mutating func rehash(size: Int) {
        let oldKeys = keys, oldValues = values
        keys = [Int](repeating: Self.empty, count: size)
        values = [Double](repeating: .nan, count: size * columns)
        shift = 64 - size.trailingZeroBitCount
        let mask = keys.count - 1
        for (j, key) in oldKeys.enumerated() where key != Self.empty {
            var i = home(key)
            while keys[i] != Self.empty { i = (i + 1) & mask }
            keys[i] = key
            for c in 0..<columns { values[i * columns + c] = oldValues[j * columns + c] }
        }
    }
}
