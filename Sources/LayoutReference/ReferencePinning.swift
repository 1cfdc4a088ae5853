import LayoutEngine

/// docs/engine-semantics.md's pinning, computed the plainest way from the reference's natural frames: the oracle
/// that the engine's pinning modes (`PinningMode`) and the `sticky-scroll` workload are checked
/// against. It walks every section at every offset and takes the words of docs/engine-semantics.md literally:
///
/// - visible top T = offset + pinOffset, visible bottom B = offset + viewport height;
/// - a `stacked` header: y = max(y0, T + the heights of the stacked headers of earlier sections);
/// - a `normal` header: y = max(y0, min(T', E - h)), with E the end of its section's items region
///   and T' = T plus the heights of the stacked headers that are pinned at that moment;
/// - a `normal` footer: y = min(y0, max(B - h, the top of its section's items region));
/// - an element is pinned when its frame differs from its natural frame.
///
/// zIndex, as docs/engine-semantics.md orders pinned elements (above items; among headers, later sections above
/// earlier ones): a header that can pin has 3 + its section, a footer that can pin 2; other
/// elements keep the natural convention (decoration -1, item 0, header and footer 1).
extension ReferenceLayout {
    /// The headers and footers that can pin (their style pins them and their height is not 0),
    /// where they are at scroll offset `offset`. O(S).
    public func pinnableSupplementaries(pinOffset: Double, offset: Double, viewportHeight: Double) -> [LayoutAttributes] {
        let visibleTop = offset + pinOffset
        let visibleBottom = offset + viewportHeight
        var result: [LayoutAttributes] = []

        var stackedOfEarlierSections = 0.0
        var pinnedStackedHeights = 0.0
        for s in 0..<sectionCount where style(ofSection: s).headerPin == .stacked {
            guard let natural = frame(of: .header(section: s)) else { continue }
            var frame = natural
            frame.y = max(natural.y, visibleTop + stackedOfEarlierSections)
            stackedOfEarlierSections += natural.height
            if frame.y != natural.y { pinnedStackedHeights += natural.height }
            result.append(LayoutAttributes(id: .header(section: s), frame: frame, zIndex: 3 + s, isPinned: frame.y != natural.y))
        }
        let stackedTop = visibleTop + pinnedStackedHeights

        for s in 0..<sectionCount {
            let style = style(ofSection: s)
            let sectionTop = sectionTops[s], sectionBottom = sectionTops[s + 1]
            if style.headerPin == .normal, let natural = frame(of: .header(section: s)) {
                let itemsEnd = sectionBottom - style.footerHeight - style.insets.bottom
                var frame = natural
                frame.y = max(natural.y, min(stackedTop, itemsEnd - natural.height))
                result.append(LayoutAttributes(id: .header(section: s), frame: frame, zIndex: 3 + s, isPinned: frame.y != natural.y))
            }
            if style.footerPin == .normal, let natural = frame(of: .footer(section: s)) {
                let itemsTop = sectionTop + style.headerHeight + style.insets.top
                var frame = natural
                frame.y = min(natural.y, max(visibleBottom - natural.height, itemsTop))
                result.append(LayoutAttributes(id: .footer(section: s), frame: frame, zIndex: 2, isPinned: frame.y != natural.y))
            }
        }
        return result
    }

    /// Every element whose frame at scroll offset `offset` intersects `rect`, sorted by
    /// `ElementID`: the natural scan of `elements(in:)` for what does not pin, and the pinned
    /// frames of what can. O(n + S).
    public func pinnedElements(in rect: Rect, pinOffset: Double, offset: Double, viewportHeight: Double) -> [LayoutAttributes] {
        let pinnable = pinnableSupplementaries(pinOffset: pinOffset, offset: offset, viewportHeight: viewportHeight)
        var result: [LayoutAttributes] = []
        for element in elements(in: rect) where !canPin(element.id) {
            let zIndex = element.id.kind == .decoration ? -1 : element.id.kind == .item ? 0 : 1
            result.append(LayoutAttributes(id: element.id, frame: element.frame, zIndex: zIndex))
        }
        result += pinnable.filter { Self.intersects($0.frame, rect) }
        return result.sorted { $0.id < $1.id }
    }

    /// Whether `id` is a header or footer whose style pins it (the element exists only when its
    /// height is not 0).
    public func canPin(_ id: ElementID) -> Bool {
        guard id.section >= 0, id.section < sectionCount else { return false }
        switch id.kind {
        case .header: return style(ofSection: id.section).headerPin != .none
        case .footer: return style(ofSection: id.section).footerPin != .none
        case .item, .decoration: return false
        }
    }
}

extension ReferenceCheck {
    /// Whether the answer of a rect query after scrolling to `offset` is the reference's answer as
    /// a set, with pinning: every element once, the same elements (up to ones whose frame lies
    /// within the tolerance of touching `rect`), frames equal within tolerance, the same zIndex,
    /// and the same `isPinned` wherever the expected frame is clearly away from the natural one.
    public static func firstMismatch(
        ofPinnedQuery rect: Rect, answer: [LayoutAttributes], against reference: ReferenceLayout,
        pinOffset: Double, offset: Double, viewportHeight: Double
    ) -> String? {
        let expected = reference.pinnedElements(in: rect, pinOffset: pinOffset, offset: offset, viewportHeight: viewportHeight)
        var answered: [ElementID: LayoutAttributes] = [:]
        answered.reserveCapacity(answer.count)
        for attributes in answer where answered.updateValue(attributes, forKey: attributes.id) != nil {
            return "query \(rect) at offset \(offset): \(attributes.id) answered twice"
        }
        func compare(_ actual: LayoutAttributes, _ element: LayoutAttributes) -> String? {
            if !ReferenceTolerance.equal(actual.frame, element.frame) {
                return "query \(rect) at offset \(offset): \(element.id): expected \(element.frame), got \(actual.frame)"
            }
            if actual.zIndex != element.zIndex {
                return "query \(rect) at offset \(offset): \(element.id): expected zIndex \(element.zIndex), got \(actual.zIndex)"
            }
            if let natural = reference.frame(of: element.id), !ReferenceTolerance.equal(natural, element.frame),
               actual.isPinned != element.isPinned
            {
                return "query \(rect) at offset \(offset): \(element.id): expected pinned \(element.isPinned), got \(actual.isPinned)"
            }
            return nil
        }
        for element in expected {
            guard let actual = answered.removeValue(forKey: element.id) else {
                if isBorderline(element.frame, rect) { continue }
                return "query \(rect) at offset \(offset): \(element.id) missing, expected \(element.frame)"
            }
            if let mismatch = compare(actual, element) { return mismatch }
        }
        // What is left was answered but not expected: only borderline elements may be.
        for (id, actual) in answered.sorted(by: { $0.key < $1.key }) {
            let current = reference.canPin(id)
                ? reference.pinnableSupplementaries(pinOffset: pinOffset, offset: offset, viewportHeight: viewportHeight)
                    .first { $0.id == id }
                : reference.frame(of: id).map { LayoutAttributes(id: id, frame: $0, zIndex: actual.zIndex) }
            if let current, isBorderline(current.frame, rect) {
                if let mismatch = compare(actual, current) { return mismatch }
                continue
            }
            return "query \(rect) at offset \(offset): \(id) answered with \(actual.frame), expected not to intersect"
        }
        return nil
    }
}
