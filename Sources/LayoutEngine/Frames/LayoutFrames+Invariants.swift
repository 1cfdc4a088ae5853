extension LayoutFrames: InvariantChecking {
    /// The first broken invariant of the stored arrays, described in words, or nil: per-section
    /// arrays of `sectionCount` entries (`sectionTops` and `sectionItemStarts` one more), item
    /// arrays of equal length matching the last item start, prefix sums that start at 0 and never
    /// decrease, finite coordinates, and sizes and heights that are not negative. O(n).
    public func invariantViolation() -> String? {
        let sections = sectionTops.count - 1
        guard sections >= 0 else { return "sectionTops is empty" }
        guard sectionItemStarts.count == sections + 1 else {
            return "\(sectionItemStarts.count) item starts for \(sections) sections"
        }
        for (name, count) in [("headerHeights", headerHeights.count), ("footerHeights", footerHeights.count),
                              ("itemsRegionTops", itemsRegionTops.count), ("itemsRegionBottoms", itemsRegionBottoms.count),
                              ("hasBackground", hasBackground.count)] where count != sections {
            return "\(name) has \(count) entries for \(sections) sections"
        }
        let items = itemHeight.count
        guard itemMinX.count == items, itemWidth.count == items, itemMinY.count == items else {
            return "item arrays disagree: \(itemMinX.count) minX, \(itemMinY.count) minY, \(itemWidth.count) widths, \(items) heights"
        }
        guard sectionItemStarts[0] == 0, sectionItemStarts[sections] == items else {
            return "item starts run from \(sectionItemStarts[0]) to \(sectionItemStarts[sections]) for \(items) items"
        }
        guard contentWidth.isFinite, contentWidth >= 0 else { return "content width \(contentWidth)" }
        guard sectionTops[0] == 0 else { return "the first section starts at \(sectionTops[0])" }
        for s in 0..<sections {
            guard sectionItemStarts[s] <= sectionItemStarts[s + 1] else { return "item starts decrease at section \(s)" }
            guard sectionTops[s + 1].isFinite, sectionTops[s] <= sectionTops[s + 1] else {
                return "section tops decrease or are not finite at section \(s): \(sectionTops[s]), \(sectionTops[s + 1])"
            }
            let top = itemsRegionTops[s], bottom = itemsRegionBottoms[s]
            guard headerHeights[s].isFinite, headerHeights[s] >= 0, footerHeights[s].isFinite, footerHeights[s] >= 0 else {
                return "section \(s) has header height \(headerHeights[s]), footer height \(footerHeights[s])"
            }
            guard top.isFinite, bottom.isFinite, headerHeights[s] <= top, top <= bottom else {
                return "section \(s) has an items region from \(top) to \(bottom) below a header of \(headerHeights[s])"
            }
        }
        for i in 0..<items {
            let minY = itemMinY[i]
            guard itemMinX[i].isFinite, minY.isFinite, itemWidth[i].isFinite, itemWidth[i] >= 0,
                  itemHeight[i].isFinite, itemHeight[i] >= 0
            else {
                return "item \(i) has frame (\(itemMinX[i]), \(minY), \(itemWidth[i]), \(itemHeight[i]))"
            }
        }
        return nil
    }
}
