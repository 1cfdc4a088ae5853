/// Y-bucketing: an exact rect query for any placement, O(buckets visited + entries in them).
///
/// The content is cut into buckets of one fixed height (about a viewport: 1024 pt, raised when
/// that would make more buckets than items, so the index stays O(n)). Each item is registered in
/// every bucket its absolute y range overlaps, in CSR form — `bucketStarts` into one flat array of
/// item indices, in index order within a bucket — so there are no per-bucket arrays. A query
/// visits the buckets from the one holding rect.minY to the one holding rect.maxY and reports an
/// item only from the first visited bucket it overlaps (the query's first bucket, or the item's
/// own first bucket after it), so each element comes once without a visited set. A very tall item
/// costs one entry per bucket it spans, never a longer scan for other queries.
///
/// Items that cannot intersect anything (zero width or height) are not indexed. Bucket numbers and
/// the final test both use the absolute coordinates `linear` uses (`sectionTops[s] + itemMinY[i]`,
/// then `+ itemHeight[i]`), so the answers are equal. Headers, footers and decorations are tested
/// per section, the sections found by binary search.
public struct BucketQuery: RectQueryIndex {
    /// The bucket height used unless the content calls for taller buckets.
    public static let defaultBucketHeight: Double = 1024

    /// The height of one bucket, in points.
    public let bucketHeight: Double
    @usableFromInline let inverseBucketHeight: Double
    /// `bucketCount + 1` offsets into `bucketItems`.
    @usableFromInline var bucketStarts: [Int32] = []
    /// Global item indices, bucket after bucket, increasing within a bucket.
    @usableFromInline var bucketItems: [Int32] = []

    public init(frames: LayoutFrames) {
        self.init(frames: frames, bucketHeight: Self.defaultBucketHeight)
    }

    /// An index with buckets `bucketHeight` tall (raised so that there are at most as many
    /// buckets as items); the harness uses the default, tests use small buckets.
    public init(frames: LayoutFrames, bucketHeight requested: Double) {
        precondition(requested.isFinite && requested > 0, "the bucket height must be positive and finite")
        precondition(frames.itemCount < Int(Int32.max), "too many items for Int32 indices")
        let content = frames.contentHeight
        let maxBuckets = Swift.max(1, frames.itemCount)
        var height = requested
        var count = 1
        if content.isFinite && content > 0 {
            if content / height > Double(maxBuckets) { height = content / Double(maxBuckets) }
            count = Swift.min(maxBuckets, Swift.max(1, Int((content / height).rounded(.up))))
        }
        bucketHeight = height
        inverseBucketHeight = 1 / height
        let inverse = inverseBucketHeight

        // Count the entries of each bucket (into the slot after it), then prefix sums.
        var counts = [Int](repeating: 0, count: count + 1)
        Self.forEachIndexedItem(frames, inverse: inverse, bucketCount: count) { _, first, last in
            for b in first...last { counts[b + 1] += 1 }
        }
        for b in 0..<count { counts[b + 1] += counts[b] }
        precondition(counts[count] < Int(Int32.max), "too many bucket entries for Int32 offsets")
        bucketStarts = counts.map { Int32($0) }

        // Fill, in item order.
        var items = [Int32](repeating: 0, count: counts[count])
        Self.forEachIndexedItem(frames, inverse: inverse, bucketCount: count) { i, first, last in
            for b in first...last {
                items[counts[b]] = Int32(i)
                counts[b] += 1
            }
        }
        bucketItems = items
    }

    /// The number of buckets.
    @inlinable public var bucketCount: Int { bucketStarts.count - 1 }

    /// The bucket holding `y`: monotone in y, clamped to the buckets (NaN goes to the first).
    @inlinable @inline(__always)
    func bucket(containing y: Double) -> Int {
        Self.bucket(containing: y, inverse: inverseBucketHeight, bucketCount: bucketStarts.count - 1)
    }

    @inlinable @inline(__always)
    static func bucket(containing y: Double, inverse: Double, bucketCount: Int) -> Int {
        let t = y * inverse
        if !(t > 0) { return 0 }
        let last = bucketCount - 1
        if t >= Double(last) { return last }
        return Int(t)
    }

    /// Calls `body` with every item that can intersect something, its first and last bucket.
    private static func forEachIndexedItem(
        _ frames: LayoutFrames, inverse: Double, bucketCount: Int, _ body: (Int, Int, Int) -> Void
    ) {
        for s in 0..<frames.sectionCount {
            let sectionTop = frames.sectionTops[s]
            for i in frames.itemRange(inSection: s) {
                let minX = frames.itemMinX[i], minY = sectionTop + frames.itemMinY[i]
                let maxY = minY + frames.itemHeight[i]
                guard minX < minX + frames.itemWidth[i] && minY < maxY else { continue }
                body(
                    i, bucket(containing: minY, inverse: inverse, bucketCount: bucketCount),
                    bucket(containing: maxY, inverse: inverse, bucketCount: bucketCount))
            }
        }
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        if rect.isEmpty { return }
        let rectMinX = rect.minX, rectMaxX = rect.maxX, rectMinY = rect.minY, rectMaxY = rect.maxY

        // Headers, footers, decorations of the sections the rect meets.
        for s in frames.sectionRange(meetingMinY: rectMinY, maxY: rectMaxY) {
            frames.appendSupplementary(inSection: s, intersecting: rect, to: &results)
        }

        // Items, bucket by bucket.
        let firstBucket = bucket(containing: rectMinY)
        let lastBucket = bucket(containing: rectMaxY)
        for b in firstBucket...lastBucket {
            var section = -1
            var sectionStart = 0, sectionEnd = 0
            var sectionTop = 0.0
            for entry in Int(bucketStarts[b])..<Int(bucketStarts[b + 1]) {
                let i = Int(bucketItems[entry])
                if i >= sectionEnd {
                    // Items come in increasing order: usually the next section, else a search.
                    if section >= 0 && i < frames.pointee.sectionItemStarts[section + 2] {
                        section += 1
                    } else {
                        section = frames.section(ofItem: i)
                    }
                    sectionStart = frames.pointee.sectionItemStarts[section]
                    sectionEnd = frames.pointee.sectionItemStarts[section + 1]
                    sectionTop = frames.pointee.sectionTops[section]
                }
                let minX = frames.pointee.itemMinX[i], minY = sectionTop + frames.pointee.itemMinY[i]
                // Reported from an earlier bucket of this query.
                if b != firstBucket && bucket(containing: minY) != b { continue }
                let width = frames.pointee.itemWidth[i], height = frames.pointee.itemHeight[i]
                if Rect.intersects(
                    minX: minX, minY: minY, maxX: minX + width, maxY: minY + height,
                    withMinX: rectMinX, minY: rectMinY, maxX: rectMaxX, maxY: rectMaxY)
                {
                    results.append(LayoutAttributes(
                        id: .item(i - sectionStart, section: section),
                        frame: Rect(x: minX, y: minY, width: width, height: height)))
                }
            }
        }
    }

    public var allocatedBytes: Int { (bucketStarts.capacity + bucketItems.capacity) * 4 }
}
