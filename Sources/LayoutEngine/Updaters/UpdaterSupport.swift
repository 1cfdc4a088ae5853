/// Helpers shared by the waterfall update modes: validating a configuration, editing the shape of
/// `LayoutFrames` in step with `LayoutData`, laying out one section whole, and restacking sections.
enum UpdaterSupport {
    /// Throws what `SectionedLayout` would throw for this viewport and these styles.
    static func validate(bounds: Rect, styles: [SectionStyle]) throws(LayoutError) {
        _ = try SectionedLayout(bounds: bounds, styles: styles, data: LayoutData())
    }

    /// Whether the section now at index `t`, which was at `previousIndex` before a section was
    /// inserted or removed, cycles to a different style (styles repeat by section index).
    static func styleChanged(_ styles: [SectionStyle], section t: Int, previousIndex: Int) -> Bool {
        styles.count > 1 && styles[t % styles.count] != styles[previousIndex % styles.count]
    }
}

extension LayoutFrames {
    /// Inserts `count` zeroed item slots at global index `global`, the items of `section`
    /// (an O(n) memmove unless they go at the very end).
    mutating func insertItemSlots(_ count: Int, atGlobal global: Int, section: Int) {
        guard count > 0 else { return }
        if global == itemCount {
            itemMinX.append(contentsOf: repeatElement(0, count: count))
            itemWidth.append(contentsOf: repeatElement(0, count: count))
            itemHeight.append(contentsOf: repeatElement(0, count: count))
            itemMinY.append(repeating: 0, count: count)
        } else {
            let zeros = [Double](repeating: 0, count: count)
            itemMinX.insert(contentsOf: zeros, at: global)
            itemWidth.insert(contentsOf: zeros, at: global)
            itemHeight.insert(contentsOf: zeros, at: global)
            itemMinY.insert(contentsOf: zeros, at: global)
        }
        for s in (section + 1)..<sectionItemStarts.count { sectionItemStarts[s] += count }
    }

    /// Removes the item slots `range` (global indices) of `section`.
    mutating func removeItemSlots(_ range: Range<Int>, section: Int) {
        guard !range.isEmpty else { return }
        itemMinX.removeSubrange(range)
        itemWidth.removeSubrange(range)
        itemHeight.removeSubrange(range)
        itemMinY.removeSubrange(range)
        for s in (section + 1)..<sectionItemStarts.count { sectionItemStarts[s] -= range.count }
    }

    /// Inserts an empty section at index `section` with `itemCount` zeroed item slots; the caller
    /// lays it out and restacks.
    mutating func insertSectionSlots(at section: Int, itemCount count: Int) {
        let start = sectionItemStarts[section]
        sectionItemStarts.insert(start, at: section)
        sectionTops.insert(sectionTops[section], at: section + 1)
        headerHeights.insert(0, at: section)
        footerHeights.insert(0, at: section)
        itemsRegionTops.insert(0, at: section)
        itemsRegionBottoms.insert(0, at: section)
        hasBackground.insert(false, at: section)
        insertItemSlots(count, atGlobal: start, section: section)
    }

    /// Removes section `section` and its items; the caller restacks.
    mutating func removeSectionSlots(at section: Int) {
        removeItemSlots(itemRange(inSection: section), section: section)
        sectionItemStarts.remove(at: section + 1)
        sectionTops.remove(at: section + 1)
        headerHeights.remove(at: section)
        footerHeights.remove(at: section)
        itemsRegionTops.remove(at: section)
        itemsRegionBottoms.remove(at: section)
        hasBackground.remove(at: section)
    }

    /// Lays out every item of `section` from scratch with the placement its style names (the same
    /// code `SectionedLayout.computeFrames` runs) and stores its per-section values. Item tops go
    /// through `scratch` (the placements write plain buffers) and into `itemMinY` through the writer,
    /// which honours its lazy shifts. Does not restack.
    mutating func layOutSection(
        _ section: Int, bounds: Rect, style: SectionStyle, data: LayoutData, scratch: inout [Double]
    ) {
        let range = itemRange(inSection: section)
        let regionTop = style.headerHeight + style.insets.top
        headerHeights[section] = style.headerHeight
        footerHeights[section] = style.footerHeight
        itemsRegionTops[section] = regionTop
        hasBackground[section] = style.background
        if scratch.count < range.count {
            scratch.append(contentsOf: repeatElement(0, count: range.count - scratch.count))
        }
        let bottom = withItemWriter { items in
            data.widths.withUnsafeBufferPointer { dataWidths in
                data.heights.withUnsafeBufferPointer { dataHeights in
                    data.spansAllColumns.withUnsafeBufferPointer { spans in
                        scratch.withUnsafeMutableBufferPointer { minY in
                            let bottom = SectionedLayout.placeItems(SectionPlacement(
                                widths: UnsafeBufferPointer(rebasing: dataWidths[range]),
                                heights: UnsafeBufferPointer(rebasing: dataHeights[range]),
                                spansAllColumns: UnsafeBufferPointer(rebasing: spans[range]),
                                regionLeft: style.insets.left,
                                regionWidth: bounds.width - style.insets.horizontal,
                                regionTop: regionTop,
                                itemSpacing: style.itemSpacing,
                                lineSpacing: style.lineSpacing,
                                minX: UnsafeMutableBufferPointer(rebasing: items.minX[range]),
                                minY: UnsafeMutableBufferPointer(rebasing: minY[0..<range.count]),
                                width: UnsafeMutableBufferPointer(rebasing: items.width[range]),
                                height: UnsafeMutableBufferPointer(rebasing: items.height[range])),
                                kind: style.kind)
                            for i in 0..<range.count { items.minY[range.lowerBound + i] = minY[i] }
                            return bottom
                        }
                    }
                }
            }
        }
        itemsRegionBottoms[section] = bottom
    }

    /// Recomputes the tops of sections after `section` from the items-region bottoms, with the
    /// same arithmetic as a full layout (so the prefix sums agree bit for bit). O(sections).
    mutating func restackSections(from section: Int, styles: [SectionStyle]) {
        guard section < sectionCount else { return }
        for s in section..<sectionCount {
            let style = styles[s % styles.count]
            let sectionHeight = itemsRegionBottoms[s] + style.insets.bottom + style.footerHeight
            sectionTops[s + 1] = sectionTops[s] + sectionHeight
        }
    }
}
