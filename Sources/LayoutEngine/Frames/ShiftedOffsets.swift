/// A flat array of `Double` offsets that can add a constant to every element from an index
/// onwards in O(n / 4096 + 128) instead of O(n).
///
/// `value(i) = base[i] + blockShift[i / 64] + groupShift[i / 4096]`. A layout that moves
/// "everything after this item" by δ — a height edit in a list, or a waterfall whose columns
/// re-synchronised after an edit — shifts in O(1)-ish time; reads cost two extra loads.
/// Structural edits (insert, remove) fold the shifts back into `base` first.
public struct ShiftedOffsets: Hashable, Sendable {
    @usableFromInline static var blockBits: Int { 6 }
    @usableFromInline static var groupBits: Int { 12 }

    @usableFromInline var base = ItemColumn()
    @usableFromInline var blockShift: [Double] = []
    @usableFromInline var groupShift: [Double] = []
    /// False while every shift is zero, so readers can use `base` as it is.
    @usableFromInline var hasShifts = false

    public init() {}

    public init(_ values: [Double]) {
        self.init(ItemColumn(values))
    }

    public init(_ values: ItemColumn) {
        base = values
        blockShift = [Double](repeating: 0, count: Self.blocks(values.count, Self.blockBits))
        groupShift = [Double](repeating: 0, count: Self.blocks(values.count, Self.groupBits))
    }

    @inlinable public var count: Int { base.count }

    @inlinable
    public subscript(index: Int) -> Double {
        get {
            hasShifts
                ? base[index] + blockShift[index &>> Self.blockBits] + groupShift[index &>> Self.groupBits]
                : base[index]
        }
        set {
            if hasShifts {
                base[index] = newValue - blockShift[index &>> Self.blockBits] - groupShift[index &>> Self.groupBits]
            } else {
                base[index] = newValue
            }
        }
    }

    /// Adds `delta` to every value at `start ..< end`.
    public mutating func shift(_ range: Range<Int>, by delta: Double) {
        if range.isEmpty || delta == 0 { return }
        shiftFrom(range.lowerBound, by: delta)
        if range.upperBound < count { shiftFrom(range.upperBound, by: -delta) }
    }

    /// Adds `delta` to every value from `start` to the end.
    public mutating func shiftFrom(_ start: Int, by delta: Double) {
        guard start < count, delta != 0 else { return }
        hasShifts = true
        let blockSize = 1 << Self.blockBits
        let groupSize = 1 << Self.groupBits
        var i = start
        // Single values up to the next block boundary.
        let firstBlockEnd = Swift.min(count, (i + blockSize - 1) & ~(blockSize - 1))
        if i < firstBlockEnd {
            base.withUnsafeMutableBufferPointer { values in
                for j in i..<firstBlockEnd { values[j] += delta }
            }
            i = firstBlockEnd
        }
        // Whole blocks up to the next group boundary.
        let firstGroupEnd = Swift.min(count, (i + groupSize - 1) & ~(groupSize - 1))
        while i < firstGroupEnd { blockShift[i &>> Self.blockBits] += delta; i += blockSize }
        // Whole groups to the end.
        while i < count { groupShift[i &>> Self.groupBits] += delta; i += groupSize }
    }

    /// Folds all shifts into the stored values (O(n)); afterwards every shift is zero.
    public mutating func normalize() {
        guard hasShifts else { return }
        do {
            // Through buffers, opened once: `base` checks its uniqueness on every subscript write.
            let blockShift = self.blockShift, groupShift = self.groupShift
            base.withUnsafeMutableBufferPointer { values in
                blockShift.withUnsafeBufferPointer { blockShift in
                    groupShift.withUnsafeBufferPointer { groupShift in
                        for i in values.indices {
                            values[i] = values[i] + blockShift[i &>> Self.blockBits] + groupShift[i &>> Self.groupBits]
                        }
                    }
                }
            }
        }
        for b in blockShift.indices { blockShift[b] = 0 }
        for g in groupShift.indices { groupShift[g] = 0 }
        hasShifts = false
    }

    /// Calls `body` with the plain values when no shift is pending (after a full layout), so a
    /// pass over every value reads one array; returns nil, without calling it, otherwise.
    @inlinable
    public func withUnshiftedValues<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R? {
        guard !hasShifts else { return nil }
        return try base.withUnsafeBufferPointer(body)
    }

    /// Write access to the values through unsafe buffers, opened once by `withWriter`: a write
    /// stores the value net of any pending shift, so it reads back as written (as the subscript).
    @usableFromInline
    struct Writer {
        @usableFromInline let base: UnsafeMutableBufferPointer<Double>
        @usableFromInline let blockShift: UnsafeBufferPointer<Double>
        @usableFromInline let groupShift: UnsafeBufferPointer<Double>
        @usableFromInline let hasShifts: Bool

        @inlinable
        init(base: UnsafeMutableBufferPointer<Double>, blockShift: UnsafeBufferPointer<Double>,
             groupShift: UnsafeBufferPointer<Double>, hasShifts: Bool) {
            self.base = base
            self.blockShift = blockShift
            self.groupShift = groupShift
            self.hasShifts = hasShifts
        }

        @inlinable
        subscript(index: Int) -> Double {
            @inline(__always) get {
                hasShifts
                    ? base[index] + blockShift[index &>> ShiftedOffsets.blockBits] + groupShift[index &>> ShiftedOffsets.groupBits]
                    : base[index]
            }
            @inline(__always) nonmutating set {
                if hasShifts {
                    base[index] = newValue - blockShift[index &>> ShiftedOffsets.blockBits]
                        - groupShift[index &>> ShiftedOffsets.groupBits]
                } else {
                    base[index] = newValue
                }
            }
        }
    }

    /// Calls `body` with a writer over the values; pending shifts stay pending.
    @inlinable
    mutating func withWriter<R>(_ body: (Writer) throws -> R) rethrows -> R {
        let hasShifts = self.hasShifts
        return try blockShift.withUnsafeBufferPointer { blockShift in
            try groupShift.withUnsafeBufferPointer { groupShift in
                try base.withUnsafeMutableBufferPointer { base in
                    try body(Writer(base: base, blockShift: blockShift, groupShift: groupShift, hasShifts: hasShifts))
                }
            }
        }
    }

    /// Sets the number of values, keeping the first `min(old, new)` and filling with zero.
    /// Shifts are folded first, so the result is unshifted.
    public mutating func resize(to newCount: Int) {
        normalize()
        if newCount < count {
            base.removeLast(count - newCount)
        } else if newCount > count {
            base.append(contentsOf: repeatElement(0, count: newCount - count))
        }
        resizeShifts()
    }

    public mutating func append(_ value: Double) {
        base.append(0)
        resizeShifts()
        self[count - 1] = value
    }

    /// Appends `count` copies of `value` (each reads back as `value`).
    public mutating func append(repeating value: Double, count newCount: Int) {
        guard newCount > 0 else { return }
        let start = count
        base.append(contentsOf: repeatElement(value, count: newCount))
        resizeShifts()
        guard hasShifts else { return }
        // Values landing in blocks or groups that already carry a shift are stored net of it.
        for i in start..<count {
            let shift = blockShift[i &>> Self.blockBits] + groupShift[i &>> Self.groupBits]
            if shift != 0 { base[i] = value - shift }
        }
    }

    public mutating func insert(contentsOf values: [Double], at index: Int) {
        normalize()
        base.insert(contentsOf: values, at: index)
        resizeShifts()
    }

    public mutating func removeSubrange(_ range: Range<Int>) {
        normalize()
        base.removeSubrange(range)
        resizeShifts()
    }

    public mutating func removeAll(keepingCapacity: Bool = true) {
        base.removeAll(keepingCapacity: keepingCapacity)
        blockShift.removeAll(keepingCapacity: keepingCapacity)
        groupShift.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Gives direct access to the stored values after clearing every shift, so a full layout
    /// pass can write plain values at full speed.
    public mutating func withUnshiftedStorage<R>(
        count newCount: Int, _ body: (UnsafeMutableBufferPointer<Double>) throws -> R
    ) rethrows -> R {
        if base.count != newCount {
            if newCount < base.count { base.removeLast(base.count - newCount) }
            else { base.append(contentsOf: repeatElement(0, count: newCount - base.count)) }
        }
        // Without a pending shift every shift is zero: shift arrays of the right size are kept.
        let blocks = Self.blocks(newCount, Self.blockBits), groups = Self.blocks(newCount, Self.groupBits)
        if hasShifts || blockShift.count != blocks || groupShift.count != groups {
            blockShift = [Double](repeating: 0, count: blocks)
            groupShift = [Double](repeating: 0, count: groups)
        }
        hasShifts = false
        return try base.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// The values as a plain array (O(n)).
    public var values: [Double] { (0..<count).map { self[$0] } }

    /// Bytes held by the arrays (capacity, not count).
    public var allocatedBytes: Int {
        (base.capacity + blockShift.capacity + groupShift.capacity) * MemoryLayout<Double>.stride
    }

    private mutating func resizeShifts() {
        let blocks = Self.blocks(count, Self.blockBits)
        if blockShift.count < blocks { blockShift.append(contentsOf: repeatElement(0, count: blocks - blockShift.count)) }
        else if blockShift.count > blocks { blockShift.removeLast(blockShift.count - blocks) }
        let groups = Self.blocks(count, Self.groupBits)
        if groupShift.count < groups { groupShift.append(contentsOf: repeatElement(0, count: groups - groupShift.count)) }
        else if groupShift.count > groups { groupShift.removeLast(groupShift.count - groups) }
    }

    @usableFromInline static func blocks(_ count: Int, _ bits: Int) -> Int { (count + (1 << bits) - 1) >> bits }

    public static func == (lhs: ShiftedOffsets, rhs: ShiftedOffsets) -> Bool {
        lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs[$0] == rhs[$0] }
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for i in 0..<count { hasher.combine(self[i]) }
    }
}
