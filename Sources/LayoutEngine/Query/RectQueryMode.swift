/// The strategies for `layoutAttributesForElements(in:)`, by the names the CSV and scenario
/// files use (docs/modes.md).
public enum RectQueryMode: String, Hashable, Sendable, CaseIterable {
    /// Test every element: what IGListKit and Listable do. O(n).
    case linear
    /// CHTCollectionViewWaterfallLayout: blocks of 20 elements with union rects, scanned linearly
    /// from both ends. O(n/20 + span).
    case unionBlocks = "union-blocks"
    /// HDCollectionView: binary search for any hit, then walk both ways and keep probing 40
    /// elements past the first miss, with a ±1 pt tolerance. A heuristic: can miss and can add.
    case binaryProbe = "binary-probe"
    /// Exact O(log n + k): per section, lower bound on a prefix maximum of maxY over items sorted
    /// by minY, then walk while minY < rect.maxY. Sections located by binary search.
    case binary
    /// HDWaterFlowLayout's per-column arrays, made exact: per section, items grouped by their
    /// column (x range) plus one spanning group, each in minY order with a prefix maximum of maxY.
    /// O(C log(n/C) + k).
    case perColumn = "per-column"
    /// Y-bucketing exact for any placement: each item registered in every fixed-height bucket
    /// it overlaps (CSR arrays); a query visits the overlapping buckets. O(buckets + k').
    case buckets
    /// Starts from the previous frame's answer: drops what left, adds what entered by galloping from
    /// the last walk, and reuses the answer while nothing crosses its window. Exact.
    case coherent
    /// TanStack Virtual's masonry range: binary search on item starts in index order, then expand
    /// both ways until every lane is covered. A heuristic: returns the whole index range (extras);
    /// on a waterfall it misses nothing, as lanes run down in index order.
    case masonryRange = "masonry-range"
    /// react-virtualized's PositionCache: an interval tree over item vertical extents (flat, an
    /// implicit augmented tree per section). Exact, O(log n + k).
    case intervalTree = "interval-tree"

    /// Whether the mode must return exactly the elements that intersect (heuristics report recall).
    public var isExact: Bool {
        switch self {
        case .binaryProbe, .masonryRange: false
        case .linear, .unionBlocks, .binary, .perColumn, .buckets, .coherent, .intervalTree: true
        }
    }

    /// Builds this mode's index over `frames`.
    public func make(frames: LayoutFrames) -> any RectQueryIndex {
        switch self {
        case .linear: return LinearQuery(frames: frames)
        case .unionBlocks: return UnionBlocksQuery(frames: frames)
        case .binaryProbe: return BinaryProbeQuery(frames: frames)
        case .binary: return BinaryQuery(frames: frames)
        case .perColumn: return PerColumnQuery(frames: frames)
        case .buckets: return BucketQuery(frames: frames)
        case .coherent: return CoherentQuery(frames: frames)
        case .masonryRange: return MasonryRangeQuery(frames: frames)
        case .intervalTree: return IntervalTreeQuery(frames: frames)
        }
    }
}

/// An index over a layout's frames that answers rect queries.
///
/// Built once per layout pass (`init(frames:)`), then queried many times with the same frames.
/// Queries append `LayoutAttributes` to a caller-provided array and allocate nothing once the
/// array has the capacity.
///
/// Queries take the frames by address: `LayoutFrames` is ~180 bytes, and Swift copies a struct
/// stored in the caller's `self` before handing it by value to a function it does not inline (an
/// existential's method never is), even as `borrowing`. `SectionedLayout` passes the address of its
/// own frames; implementations read through the pointer and never hand `frames.pointee` on by value
/// to a function that is not inlined (that copies it again). The by-value `appendElements(in:frames:to:)`
/// is a wrapper for tests and one-off queries.
public protocol RectQueryIndex {
    init(frames: LayoutFrames)

    /// Appends every element whose frame intersects `rect` (for heuristic modes: what the
    /// heuristic finds). `frames` must point at the frames the index was built from, valid and
    /// unchanged during the call.
    func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes])

    /// Bytes the index holds beyond the frames.
    var allocatedBytes: Int { get }

    /// Builds the index again over `frames` (after a layout pass), reusing its storage where the
    /// mode can; by default a new index.
    mutating func rebuild(frames: LayoutFrames)
}

extension RectQueryIndex {
    public mutating func rebuild(frames: LayoutFrames) {
        self = Self(frames: frames)
    }
}

extension RectQueryIndex {
    /// Appends every element whose frame intersects `rect`, with the frames by value (copied
    /// once per call; see the protocol).
    public func appendElements(in rect: Rect, frames: LayoutFrames, to results: inout [LayoutAttributes]) {
        withUnsafePointer(to: frames) { appendElements(in: rect, framesAt: $0, to: &results) }
    }

    /// Replaces the contents of `results` with the elements in `rect`.
    @inlinable
    public func elements(in rect: Rect, frames: LayoutFrames, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)
        appendElements(in: rect, frames: frames, to: &results)
    }

    /// Replaces the contents of `results` with the elements in `rect`, reading the frames at
    /// `frames` (see `appendElements(in:framesAt:to:)`).
    @inlinable
    public func elements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)
        appendElements(in: rect, framesAt: frames, to: &results)
    }
}

/// The reads rect queries make through their pointer to the frames (see `RectQueryIndex`). Each
/// reads the fields it needs at `pointee.field`: calling a method on `pointee` instead copies the
/// whole struct first when the call is not inlined, or when it appends to `results`.
extension UnsafePointer<LayoutFrames> {
    /// The section that owns a global item index (binary search).
    @inlinable @inline(__always)
    public func section(ofItem global: Int) -> Int {
        var low = 0, high = pointee.sectionTops.count - 2
        while low < high {
            let mid = (low + high + 1) >> 1
            if pointee.sectionItemStarts[mid] <= global { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The first section whose bottom lies below `y` (its range of y extends past y), or
    /// `sectionCount` when none does. Binary search over the prefix sums.
    @inlinable @inline(__always)
    public func firstSection(endingBelow y: Double) -> Int {
        var low = 0, high = pointee.sectionTops.count - 1
        while low < high {
            let mid = (low + high) >> 1
            if pointee.sectionTops[mid + 1] > y { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The sections whose elements a rect spanning `minY ..< maxY` can meet, by binary search over
    /// the prefix sums. Widened by a tiny slack, because an element's absolute edge
    /// (`sectionTop + localY + height`) can pass its section's bounds by an ulp; callers test
    /// each element exactly.
    @inlinable @inline(__always)
    public func sectionRange(meetingMinY minY: Double, maxY: Double) -> Range<Int> {
        let sectionCount = pointee.sectionTops.count - 1
        let slack = 1e-9 * (1 + pointee.sectionTops[sectionCount])
        let first = firstSection(endingBelow: minY - slack)
        // The first section at or after `first` whose top is at or below maxY + slack.
        var low = first, high = sectionCount
        while low < high {
            let mid = (low + high) >> 1
            if pointee.sectionTops[mid] < maxY + slack { low = mid + 1 } else { high = mid }
        }
        return first..<Swift.max(first, low)
    }

    /// Appends the decoration, header and footer of section `s` that intersect `rect`.
    /// Rect queries handle these (at most three per section) apart from the items.
    @inlinable @inline(__always)
    public func appendSupplementary(inSection s: Int, intersecting rect: Rect, to results: inout [LayoutAttributes]) {
        let top = pointee.sectionTops[s], bottom = pointee.sectionTops[s + 1], width = pointee.contentWidth
        if pointee.hasBackground[s] {
            let frame = Rect(x: 0, y: top, width: width, height: bottom - top)
            if frame.intersects(rect) {
                results.append(LayoutAttributes(id: .decoration(section: s), frame: frame, zIndex: -1))
            }
        }
        let headerHeight = pointee.headerHeights[s]
        if headerHeight > 0 {
            let frame = Rect(x: 0, y: top, width: width, height: headerHeight)
            if frame.intersects(rect) {
                results.append(LayoutAttributes(id: .header(section: s), frame: frame, zIndex: 1))
            }
        }
        let footerHeight = pointee.footerHeights[s]
        if footerHeight > 0 {
            let frame = Rect(x: 0, y: bottom - footerHeight, width: width, height: footerHeight)
            if frame.intersects(rect) {
                results.append(LayoutAttributes(id: .footer(section: s), frame: frame, zIndex: 1))
            }
        }
    }

    /// The attributes of item `global` of section `s` (its index in the section is derived).
    @inlinable @inline(__always)
    public func itemAttributes(global i: Int, section s: Int) -> LayoutAttributes {
        let minY = pointee.sectionTops[s] + pointee.itemMinY[i]
        return LayoutAttributes(
            id: .item(i - pointee.sectionItemStarts[s], section: s),
            frame: Rect(x: pointee.itemMinX[i], y: minY, width: pointee.itemWidth[i], height: pointee.itemHeight[i]))
    }
}
