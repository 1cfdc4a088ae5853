/// When two computed coordinates count as equal.
///
/// Within `tolerance` (1e-9 pt by default, SPEC §8) — or, where a `Double` cannot resolve 1e-9
/// (above 2^23 ≈ 8.4M pt one unit in the last place is already 1.9e-9), within 8 units in the last
/// place of the larger value. Faster modes add the same numbers in another order (a suffix shifted
/// by δ instead of re-summed), which can round differently by an ulp at 60M pt.
public enum CoordinateTolerance {
    public static let ulps = 8.0

    @inlinable
    public static func equal(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
        abs(a - b) <= Swift.max(tolerance, ulps * Swift.max(a.magnitude.ulp, b.magnitude.ulp))
    }

    @inlinable
    public static func equal(_ a: Rect, _ b: Rect, tolerance: Double = 1e-9) -> Bool {
        equal(a.x, b.x, tolerance: tolerance) && equal(a.y, b.y, tolerance: tolerance)
            && equal(a.width, b.width, tolerance: tolerance) && equal(a.height, b.height, tolerance: tolerance)
    }
}

extension LayoutFrames {
    /// The first element whose frame differs from `other`'s beyond `CoordinateTolerance` in any
    /// coordinate, or whose existence differs, described in words; nil when the layouts agree.
    /// This is how every update mode is verified against its reference.
    public func firstDifference(from other: LayoutFrames, tolerance: Double = 1e-9) -> String? {
        if sectionCount != other.sectionCount {
            return "\(sectionCount) sections, expected \(other.sectionCount)"
        }
        if !CoordinateTolerance.equal(contentWidth, other.contentWidth, tolerance: tolerance) {
            return "content width \(contentWidth), expected \(other.contentWidth)"
        }
        if !CoordinateTolerance.equal(contentHeight, other.contentHeight, tolerance: tolerance) {
            return "content height \(contentHeight), expected \(other.contentHeight)"
        }
        func differs(_ a: Rect?, _ b: Rect?) -> Bool {
            switch (a, b) {
            case (nil, nil): return false
            case (let a?, let b?): return !CoordinateTolerance.equal(a, b, tolerance: tolerance)
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
            for index in 0..<count {
                let id = ElementID.item(index, section: s)
                if differs(frame(of: id), other.frame(of: id)) {
                    return "\(id): \(frame(of: id)!), expected \(other.frame(of: id)!)"
                }
            }
        }
        return nil
    }
}
