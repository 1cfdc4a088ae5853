/// SPEC §3's pinning computed directly from the natural elements, word by word and slowly, to
/// check `PinnedElements` and the `sticky-scroll` modes against. It shares no code with them: it
/// reads the natural frames from `LayoutFrames.allElements()`, the section bounds from the section
/// frames and the insets and pins from the styles, and takes T' literally as T plus the heights of
/// the stacked headers that are pinned at that moment. O(n + S) per offset.
public enum PinnedReference {
    /// Every element of the layout at scroll offset `offset`, with the current frames of pinned
    /// headers and footers, `isPinned` where a frame differs from the natural one, and the zIndex
    /// convention of `PinnedElements` for headers and footers that can pin.
    public static func elements(
        frames: LayoutFrames, styles: [SectionStyle], pinOffset: Double, offset: Double, viewportHeight: Double
    ) -> [LayoutAttributes] {
        var elements = frames.allElements()
        let visibleTop = offset + pinOffset
        let visibleBottom = offset + viewportHeight
        func style(_ section: Int) -> SectionStyle { styles[section % styles.count] }

        // Stacked headers first: each below the stacked headers of all earlier sections.
        var stackedOfEarlierSections = 0.0
        var pinnedStackedHeights = 0.0
        for i in elements.indices where elements[i].id.kind == .header && style(elements[i].id.section).headerPin == .stacked {
            let natural = elements[i].frame
            let y = max(natural.minY, visibleTop + stackedOfEarlierSections)
            stackedOfEarlierSections += natural.height
            if y != natural.minY {
                pinnedStackedHeights += natural.height
                elements[i].frame.y = y
                elements[i].isPinned = true
            }
        }
        let stackedTop = visibleTop + pinnedStackedHeights

        for i in elements.indices {
            let id = elements[i].id
            let sectionStyle = style(id.section)
            let section = frames.sectionFrame(id.section)
            let natural = elements[i].frame
            switch id.kind {
            case .header where sectionStyle.headerPin != .none:
                elements[i].zIndex = PinnedElements.headerZIndex(section: id.section)
                guard sectionStyle.headerPin == .normal else { continue }
                let itemsEnd = section.maxY - sectionStyle.footerHeight - sectionStyle.insets.bottom
                let y = max(natural.minY, min(stackedTop, itemsEnd - natural.height))
                elements[i].frame.y = y
                elements[i].isPinned = y != natural.minY
            case .footer where sectionStyle.footerPin != .none:
                elements[i].zIndex = PinnedElements.footerZIndex
                let itemsTop = section.minY + sectionStyle.headerHeight + sectionStyle.insets.top
                let y = min(natural.minY, max(visibleBottom - natural.height, itemsTop))
                elements[i].frame.y = y
                elements[i].isPinned = y != natural.minY
            default:
                continue
            }
        }
        return elements
    }

    /// The elements of `elements(...)` whose frame intersects `rect`, sorted by id.
    public static func elements(
        in rect: Rect, frames: LayoutFrames, styles: [SectionStyle], pinOffset: Double, offset: Double,
        viewportHeight: Double
    ) -> [LayoutAttributes] {
        elements(frames: frames, styles: styles, pinOffset: pinOffset, offset: offset, viewportHeight: viewportHeight)
            .filter { $0.frame.intersects(rect) }
            .sorted { $0.id < $1.id }
    }
}
