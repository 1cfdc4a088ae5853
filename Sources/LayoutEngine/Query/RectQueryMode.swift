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

    /// Whether the mode must return exactly the elements that intersect (heuristics report recall).
    public var isExact: Bool { self != .binaryProbe }

    /// Builds this mode's index over `frames`.
    public func makeIndex(frames: LayoutFrames) -> any RectQueryIndex {
        switch self {
        case .linear: return LinearQuery(frames: frames)
        case .unionBlocks: return UnionBlocksQuery(frames: frames)
        case .binaryProbe: return BinaryProbeQuery(frames: frames)
        case .binary: return BinaryQuery(frames: frames)
        case .perColumn: return PerColumnQuery(frames: frames)
        case .buckets: return BucketQuery(frames: frames)
        case .coherent: return CoherentQuery(frames: frames)
        }
    }
}

/// An index over a layout's frames that answers rect queries.
///
/// Built once per layout pass (`init(frames:)`), then queried many times with the same frames.
/// Queries append `LayoutAttributes` to a caller-provided array and allocate nothing once the
/// array has the capacity.
public protocol RectQueryIndex {
    init(frames: LayoutFrames)

    /// Appends every element whose frame intersects `rect` (for heuristic modes: what the
    /// heuristic finds). `frames` must be the frames the index was built from.
    func appendElements(in rect: Rect, frames: LayoutFrames, to results: inout [LayoutAttributes])

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
    /// Replaces the contents of `results` with the elements in `rect`.
    @inlinable
    public func elements(in rect: Rect, frames: LayoutFrames, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)
        appendElements(in: rect, frames: frames, to: &results)
    }
}

extension LayoutFrames {
    /// Appends the decoration, header and footer of section `s` that intersect `rect`.
    /// Rect queries handle these (at most three per section) apart from the items.
    @inlinable
    public func appendSupplementary(inSection s: Int, intersecting rect: Rect, to results: inout [LayoutAttributes]) {
        let top = sectionTops[s], bottom = sectionTops[s + 1]
        if hasBackground[s] {
            let frame = Rect(x: 0, y: top, width: contentWidth, height: bottom - top)
            if frame.intersects(rect) {
                results.append(LayoutAttributes(id: .decoration(section: s), frame: frame, zIndex: -1))
            }
        }
        let headerHeight = headerHeights[s]
        if headerHeight > 0 {
            let frame = Rect(x: 0, y: top, width: contentWidth, height: headerHeight)
            if frame.intersects(rect) {
                results.append(LayoutAttributes(id: .header(section: s), frame: frame, zIndex: 1))
            }
        }
        let footerHeight = footerHeights[s]
        if footerHeight > 0 {
            let frame = Rect(x: 0, y: bottom - footerHeight, width: contentWidth, height: footerHeight)
            if frame.intersects(rect) {
                results.append(LayoutAttributes(id: .footer(section: s), frame: frame, zIndex: 1))
            }
        }
    }

    /// The attributes of item `global` of section `s` (its index in the section is derived).
    @inlinable
    public func itemAttributes(global i: Int, section s: Int) -> LayoutAttributes {
        LayoutAttributes(id: .item(i - sectionItemStarts[s], section: s), frame: itemFrame(global: i, section: s))
    }
}
