import LayoutEngine

extension LayoutFrames {
    /// The first element whose frame differs from `other`'s beyond `ReferenceTolerance` in any
    /// coordinate, or whose existence differs, described in words; nil when the layouts agree.
    /// This is how `incremental` is checked against `full` after every change, and how tests
    /// compare two layouts.
    public func firstDifference(from other: LayoutFrames) -> String? {
        if sectionCount != other.sectionCount {
            return "\(sectionCount) sections, expected \(other.sectionCount)"
        }
        if !ReferenceTolerance.equal(contentWidth, other.contentWidth) {
            return "content width \(contentWidth), expected \(other.contentWidth)"
        }
        if !ReferenceTolerance.equal(contentHeight, other.contentHeight) {
            return "content height \(contentHeight), expected \(other.contentHeight)"
        }
        func differs(_ a: Rect?, _ b: Rect?) -> Bool {
            switch (a, b) {
            case (nil, nil): return false
            case (let a?, let b?): return !ReferenceTolerance.equal(a, b)
            default: return true
            }
        }
        for s in 0..<sectionCount {
            let count = itemRange(inSection: s).count
            if count != other.itemRange(inSection: s).count {
                return "section \(s) has \(count) items, expected \(other.itemRange(inSection: s).count)"
            }
            for kind in [ElementKind.header, .footer, .decoration] {
                let id = ElementID(kind: kind, section: s, index: 0)
                if differs(frame(of: id), other.frame(of: id)) {
                    return "\(id): \(String(describing: frame(of: id))), expected \(String(describing: other.frame(of: id)))"
                }
            }
            // Both sections hold `count` items (checked above): each item's frame is read
            // straight from the arrays, as `frame(of:)` would return it.
            let start = sectionItemStarts[s], otherStart = other.sectionItemStarts[s]
            for index in 0..<count {
                let a = itemFrame(global: start + index, section: s)
                let b = other.itemFrame(global: otherStart + index, section: s)
                if !ReferenceTolerance.equal(a, b) {
                    return "\(ElementID.item(index, section: s)): \(a), expected \(b)"
                }
            }
        }
        return nil
    }
}
