/// One value per item — an item frame's x, y, width or height, or a query index's key — as an
/// array with value semantics whose storage, once it is larger than an allocator keeps for reuse,
/// is mapped on its own and marked for transparent huge pages (`NodeMemory`, as the B+-tree's
/// nodes). A first layout of a million items then takes its memory from the kernel in a few
/// 2 MiB faults instead of thousands of 4 KiB ones, and a scan or a binary search over it misses
/// the TLB far less. Smaller columns come from the allocator, as an array's storage does.
///
/// Copies share the storage until one of them changes it (copy on write). The element pointer is
/// kept beside the storage, so reading an element costs no reference counting.
public struct ItemColumn: @unchecked Sendable {
    @usableFromInline var storage: ItemColumnStorage
    /// `storage.base`.
    @usableFromInline var base: UnsafeMutablePointer<Double>
    @usableFromInline var _count: Int

    public init() {
        storage = ItemColumnStorage.empty
        base = storage.base
        _count = 0
    }

    /// A column with room for `capacity` values, holding none.
    init(storageFor capacity: Int) {
        storage = ItemColumnStorage(capacity: capacity)
        base = storage.base
        _count = 0
    }

    /// A column of `count` values left uninitialised, for a caller that writes every one of them
    /// before it reads any.
    init(uninitializedCount count: Int) {
        self.init(storageFor: count)
        _count = count
    }

    public init(_ values: [Double]) {
        self.init(storageFor: values.count)
        values.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { base.initialize(from: start, count: source.count) }
        }
        _count = values.count
    }

    public init(repeating value: Double, count: Int) {
        precondition(count >= 0, "a negative count")
        self.init(storageFor: count)
        base.initialize(repeating: value, count: count)
        _count = count
    }

    /// A column of `count` values written by `body`, which receives the **uninitialised** storage
    /// and sets how many values it wrote (as `Array.init(unsafeUninitializedCapacity:initializingWith:)`).
    public init(
        unsafeUninitializedCapacity count: Int,
        initializingWith body: (UnsafeMutableBufferPointer<Double>, inout Int) throws -> Void
    ) rethrows {
        self.init(storageFor: count)
        var initialized = 0
        try body(UnsafeMutableBufferPointer(start: base, count: count), &initialized)
        precondition(initialized >= 0 && initialized <= count, "initialized more values than the capacity")
        _count = initialized
    }

    /// How many values the storage has room for.
    public var capacity: Int { storage.capacity }

    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Double>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: base, count: _count)) }
    }

    /// Calls `body` with the values as a mutable buffer (after copying them if the storage is shared).
    @inlinable
    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Double>) throws -> R) rethrows -> R {
        makeUnique()
        return try withExtendedLifetime(storage) { try body(UnsafeMutableBufferPointer(start: base, count: _count)) }
    }

    @inlinable @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { copyStorage(capacity: _count) }
    }

    /// Moves the values into a new storage of `capacity` (at least `count`) that this column owns alone.
    @usableFromInline
    mutating func copyStorage(capacity: Int) {
        let copy = ItemColumnStorage(capacity: Swift.max(capacity, _count))
        copy.base.initialize(from: base, count: _count)
        storage = copy
        base = copy.base
    }
}

/// The storage of an `ItemColumn`: room for at least the values asked for. Only a column that
/// owns it alone writes to it.
///
/// Up to `allocatorBytes` it comes from the allocator, which keeps freed blocks of such sizes for
/// reuse, so a new layout takes over the pages of the one freed before it without a fault. Larger
/// blocks an allocator hands straight back to the kernel (jemalloc from its 8 MiB size class,
/// `opt.oversize_threshold`), and a new column of 4 KiB pages is then faulted in page by page:
/// such a column is mapped by `NodeMemory` on huge pages instead.
///
/// Like an array's storage, it has room to spare, so that inserting a few items after a layout
/// does not copy the column: a mapped column has the rest of its last huge page, an allocated
/// one a sixteenth more (address space only: untouched pages are not resident).
@usableFromInline
final class ItemColumnStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Double>
    let capacity: Int
    /// The count allocated, which the release needs.
    private let allocated: Int
    private let isMapped: Bool

    /// The largest column the allocator provides: a larger request falls in the 8 MiB size class.
    static let allocatorBytes = 7 << 20

    init(capacity needed: Int) {
        let stride = MemoryLayout<Double>.stride
        isMapped = needed * stride > Self.allocatorBytes
        if isMapped {
            let pages = (needed * stride + NodeMemory.hugePageBytes - 1) / NodeMemory.hugePageBytes
            allocated = pages * NodeMemory.hugePageBytes / stride
            base = NodeMemory.allocate(Double.self, count: allocated)
        } else {
            allocated = needed + needed / 16
            base = UnsafeMutablePointer<Double>.allocate(capacity: Swift.max(1, allocated))
        }
        capacity = allocated
    }

    deinit {
        if isMapped { NodeMemory.deallocate(base, count: allocated) } else { base.deallocate() }
    }

    /// The storage every empty column shares.
    static let empty = ItemColumnStorage(capacity: 0)
}

extension ItemColumn: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { _count }
    @inlinable public var count: Int { _count }
    @inlinable public var indices: Range<Int> { 0..<_count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    @inlinable
    public subscript(index: Int) -> Double {
        @inline(__always) get {
            precondition(index >= 0 && index < _count, "index out of range")
            return base[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < _count, "index out of range")
            makeUnique()
            base[index] = newValue
        }
    }
}

extension ItemColumn: RangeReplaceableCollection {
    /// Appends in place, growing the storage geometrically (the default would reserve exactly
    /// the new count on every call, copying the column each time).
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Double {
        for value in newElements { append(value) }
    }

    public mutating func append<C: Collection>(contentsOf newElements: C) where C.Element == Double {
        replaceSubrange(_count..<_count, with: newElements)
    }

    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity || !isKnownUniquelyReferenced(&storage) {
            copyStorage(capacity: Swift.max(minimumCapacity, capacity))
        }
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Double {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= _count, "range out of bounds")
        let inserted = newElements.count
        let newCount = _count - subrange.count + inserted
        let tail = _count - subrange.upperBound
        if newCount > capacity || !isKnownUniquelyReferenced(&storage) {
            // A new storage, growing geometrically so that appends cost O(1) amortised.
            let grown = newCount > capacity ? Swift.max(newCount, 2 * capacity) : capacity
            let copy = ItemColumnStorage(capacity: grown)
            copy.base.initialize(from: base, count: subrange.lowerBound)
            (copy.base + subrange.lowerBound + inserted).initialize(from: base + subrange.upperBound, count: tail)
            storage = copy
            base = copy.base
        } else if tail > 0 && inserted != subrange.count {
            // Overlapping regions: copyMemory is the standard library's memmove.
            UnsafeMutableRawPointer(base + subrange.lowerBound + inserted)
                .copyMemory(from: base + subrange.upperBound, byteCount: tail * MemoryLayout<Double>.stride)
        }
        var i = subrange.lowerBound
        for value in newElements {
            base[i] = value
            i += 1
        }
        _count = newCount
    }
}

extension ItemColumn: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Double...) { self.init(elements) }
}

extension ItemColumn: Hashable {
    /// Equal values in the same order (as arrays compare).
    public static func == (lhs: ItemColumn, rhs: ItemColumn) -> Bool {
        guard lhs._count == rhs._count else { return false }
        if lhs.base == rhs.base { return true }
        for i in 0..<lhs._count where lhs.base[i] != rhs.base[i] { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(_count)
        for i in 0..<_count { hasher.combine(base[i]) }
    }
}

extension ItemColumn: CustomStringConvertible {
    public var description: String { Array(self).description }
}
