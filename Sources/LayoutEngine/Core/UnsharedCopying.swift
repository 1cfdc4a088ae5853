/// A copy that shares no storage with its original, so that its first writes copy nothing.
///
/// A benchmark's untimed preparation copies a prepared value (a warm table, say) for each run
/// of an operation that consumes it; a plain copy of a value type shares its arrays until the
/// first write, which would land that copy-on-write in the timed run. The copy is equal to the
/// original, and every array keeps its capacity, so the copy appends and reallocates exactly
/// where the original would have.
@usableFromInline
package protocol UnsharedCopying {
    func unsharedCopy() -> Self
}

extension Array {
    /// The same elements in storage of their own, of the same capacity.
    package func unsharedCopy() -> [Element] {
        var copy = self
        // Not uniquely referenced, so this allocates new storage (of at least this capacity).
        copy.reserveCapacity(capacity)
        return copy
    }

    /// The same rows, the array and every row in storage of its own, each of the same capacity.
    package func unsharedRows<Row>() -> [Element] where Element == [Row] {
        var copy = unsharedCopy()
        for i in copy.indices { copy[i] = copy[i].unsharedCopy() }
        return copy
    }
}
