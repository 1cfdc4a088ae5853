import LayoutEngine

/// docs/engine-semantics.md, `list`: every item as wide as the items region, stacked from the region's top with
/// `lineSpacing` between consecutive items.
enum ReferenceListSection {
    /// Appends the section-relative frame of every item to `frames`; returns the bottom of the
    /// items region (its top when the section is empty).
    static func place(_ input: ReferenceSectionInput, into frames: inout [Rect]) -> Double {
        var top = input.regionTop
        var bottom = input.regionTop
        for i in 0..<input.count {
            let height = input.height(i)
            frames.append(Rect(x: input.regionLeft, y: top, width: input.regionWidth, height: height))
            bottom = top + height
            // The next item starts one height plus one line spacing below this one.
            top += height + input.style.lineSpacing
        }
        return bottom
    }
}
