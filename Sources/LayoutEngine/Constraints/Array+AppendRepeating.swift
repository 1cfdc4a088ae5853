/// Appending copies of one value, for the solver's tableau growth.
extension Array {
    /// Appends `count` copies of `value`, allocating exactly as
    /// `append(contentsOf: repeatElement(value, count: count))` does: one new buffer when the
    /// elements do not fit (or the buffer is shared), of the size the standard library's growth
    /// for an append asks for (the larger of the new count and twice the old capacity), and none
    /// otherwise. The elements are then appended one by one into the reserved room. The standard
    /// library's version walks a `Repeated` through generic iterator witnesses when this module is
    /// built unoptimized (the debug build of the tests), many times slower than the loop; the
    /// allocations, which the exact track counts, stay those of the standard library's version
    /// (`ArrayAppendRepeatingTests` checks capacities and buffers against it).
    ///
    /// Only the unoptimized build takes the loop: optimized, the standard library's version
    /// fills the room in one specialized pass, with fewer instructions than an append per
    /// element, so the release build, which the exact track counts, runs it unchanged.
    @inline(__always)
    mutating func appendRepeating(_ value: Element, count: Int) {
        #if DEBUG
        // Nothing to append still unshares a shared buffer in the standard library's version.
        guard count > 0 else { return append(contentsOf: repeatElement(value, count: count)) }
        let needed = self.count + count
        if needed > capacity { reserveCapacity(Swift.max(needed, 2 * capacity)) }
        for _ in 0..<count { append(value) }
        #else
        append(contentsOf: repeatElement(value, count: count))
        #endif
    }
}
