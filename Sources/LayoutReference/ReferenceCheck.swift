import LayoutEngine

/// Compares what the engine computed with a `ReferenceLayout` and describes the first mismatch in
/// one line (the element, the expected frame, the actual frame), or returns nil when they agree
/// within `ReferenceTolerance` (1e-9 pt, or 8 ulps where a `Double` cannot resolve 1e-9).
///
/// Three entry points, for the three things the harness verifies:
/// - `firstMismatch(of: LayoutFrames, against:coverage:)`: the natural frames of a prepared
///   layout (`SectionedLayout.frames`) or of an update mode after a change (`LayoutUpdater.frames`).
/// - `firstMismatch(of: some CollectionLayout, against:coverage:)`: any layout, read through
///   `attributes(for:)` and `contentSize` (natural frames: use it on layouts without pinning).
/// - `firstMismatch(ofQuery:answer:against:)`: the answer of one rect query, as a set.
///
/// Counts and the content size are always compared in full; `coverage` decides which elements
/// are compared frame by frame (`automatic`: all of them up to 300,000 items, a deterministic
/// sample above — see `ReferenceCoverage`).
public enum ReferenceCheck {
    /// The first difference between `frames` and the reference, or nil.
    public static func firstMismatch(
        of frames: LayoutFrames, against reference: ReferenceLayout, coverage: ReferenceCoverage = .automatic
    ) -> String? {
        if frames.sectionCount != reference.sectionCount {
            return "\(frames.sectionCount) sections, expected \(reference.sectionCount)"
        }
        for s in 0..<reference.sectionCount where frames.itemRange(inSection: s).count != reference.itemCount(inSection: s) {
            return "section \(s) has \(frames.itemRange(inSection: s).count) items, expected \(reference.itemCount(inSection: s))"
        }
        if let mismatch = sizeMismatch(frames.contentSize, reference) { return mismatch }
        for s in 0..<reference.sectionCount {
            let top = frames.sectionTops[s]
            if !ReferenceTolerance.equal(top, reference.sectionTops[s]) {
                return "section \(s) starts at y \(top), expected \(reference.sectionTops[s])"
            }
        }
        // The counts above match, so every item the reference has exists in `frames`: its frame
        // is read straight from the arrays (`LayoutFrames.frame(of:)` for the other elements).
        return firstFrameMismatch(reference, coverage: coverage, frame: { frames.frame(of: $0) }) { s, i in
            frames.itemFrame(global: frames.sectionItemStarts[s] + i, section: s)
        }
    }

    /// The first difference between `layout`'s elements (read through `attributes(for:)`, which
    /// must throw for an element the reference does not have) and the reference, or nil.
    public static func firstMismatch<Layout: CollectionLayout>(
        of layout: Layout, against reference: ReferenceLayout, coverage: ReferenceCoverage = .automatic
    ) -> String? {
        func frame(_ id: ElementID) -> Rect? { (try? layout.attributes(for: id))?.frame }
        if let mismatch = sizeMismatch(layout.contentSize, reference) { return mismatch }
        // No element past the end of any section, and no section past the last.
        for s in 0...reference.sectionCount {
            let extra = s < reference.sectionCount
                ? [ElementID.item(reference.itemCount(inSection: s), section: s)]
                : [ElementID.item(0, section: s), .header(section: s), .footer(section: s), .decoration(section: s)]
            for id in extra {
                if let actual = frame(id) { return "\(id): expected no such element, got \(actual)" }
            }
        }
        return firstFrameMismatch(reference, coverage: coverage, frame: frame) { s, i in frame(.item(i, section: s)) }
    }

    /// Whether the answer of a rect query is the reference's answer as a set: every element once,
    /// the same elements, frames equal within tolerance.
    ///
    /// An element whose frame lies within the tolerance of touching `rect` (so that rounding alone
    /// decides whether it intersects) may be present or absent. The reference knows natural frames
    /// only: use this on layouts without pinning.
    public static func firstMismatch(
        ofQuery rect: Rect, answer: [LayoutAttributes], against reference: ReferenceLayout
    ) -> String? {
        let expected = reference.elements(in: rect)
        var answered: [ElementID: Rect] = [:]
        answered.reserveCapacity(answer.count)
        for attributes in answer {
            if answered.updateValue(attributes.frame, forKey: attributes.id) != nil {
                return "query \(rect): \(attributes.id) answered twice"
            }
        }
        for element in expected {
            guard let actual = answered.removeValue(forKey: element.id) else {
                if isBorderline(element.frame, rect) { continue }
                return "query \(rect): \(element.id) missing, expected \(element.frame)"
            }
            if !ReferenceTolerance.equal(actual, element.frame) {
                return "query \(rect): \(element.id): expected \(element.frame), got \(actual)"
            }
        }
        // What is left was answered but not expected.
        for (id, actual) in answered.sorted(by: { $0.key < $1.key }) {
            if let frame = reference.frame(of: id), isBorderline(frame, rect) {
                if !ReferenceTolerance.equal(actual, frame) { return "query \(rect): \(id): expected \(frame), got \(actual)" }
                continue
            }
            return "query \(rect): \(id) answered with \(actual), expected not to intersect"
        }
        return nil
    }

    // MARK: Helpers

    private static func sizeMismatch(_ size: Size, _ reference: ReferenceLayout) -> String? {
        if !ReferenceTolerance.equal(size.width, reference.contentWidth) {
            return "content width \(size.width), expected \(reference.contentWidth)"
        }
        if !ReferenceTolerance.equal(size.height, reference.contentHeight) {
            return "content height \(size.height), expected \(reference.contentHeight)"
        }
        return nil
    }

    /// Compares the covered elements, and for headers, footers and decorations also their absence:
    /// per section its header, footer and decoration, then its covered items in order. An item's
    /// expected frame is read from the reference's flat array (what `frame(of:)` returns for it),
    /// with no list of ids built: a whole check of 1,000,000 items after every change of a trace
    /// allocates nothing per item. `actualItem` is the actual frame of item i of section s (what
    /// `actualFrame` returns for it), nil when there is none.
    private static func firstFrameMismatch(
        _ reference: ReferenceLayout, coverage: ReferenceCoverage, frame actualFrame: (ElementID) -> Rect?,
        item actualItem: (_ section: Int, _ item: Int) -> Rect?
    ) -> String? {
        let whole = coverage.isWhole(itemCount: reference.itemCount)
        let sections = whole ? Array(0..<reference.sectionCount) : ReferenceCoverage.sampledSections(count: reference.sectionCount)
        func mismatch(_ id: ElementID, expected: Rect?) -> String? {
            mismatch(id, expected: expected, actual: actualFrame(id))
        }
        func mismatch(_ id: ElementID, expected: Rect?, actual: Rect?) -> String? {
            switch (expected, actual) {
            case (nil, nil):
                return nil
            case (let expected?, nil):
                return "\(id): expected \(expected), got no such element"
            case (nil, let actual?):
                return "\(id): expected no such element, got \(actual)"
            case (let expected?, let actual?):
                return ReferenceTolerance.equal(expected, actual) ? nil : "\(id): expected \(expected), got \(actual)"
            }
        }
        for s in sections {
            for id in [ElementID.header(section: s), .footer(section: s), .decoration(section: s)] {
                if let problem = mismatch(id, expected: reference.frame(of: id)) { return problem }
            }
            let count = reference.itemCount(inSection: s), start = reference.sectionItemStarts[s]
            func itemMismatch(_ i: Int) -> String? {
                let expected = reference.itemFrames[start + i]
                if let actual = actualItem(s, i), ReferenceTolerance.equal(expected, actual) { return nil }
                return mismatch(.item(i, section: s), expected: expected, actual: actualItem(s, i))
            }
            if whole {
                for i in 0..<count {
                    if let problem = itemMismatch(i) { return problem }
                }
            } else {
                for i in ReferenceCoverage.sampledItems(count: count) {
                    if let problem = itemMismatch(i) { return problem }
                }
            }
        }
        return nil
    }

    /// Whether moving `rect`'s edges by the tolerance changes whether `frame` intersects it.
    static func isBorderline(_ frame: Rect, _ rect: Rect) -> Bool {
        let slack = max(ReferenceTolerance.absolute, ReferenceTolerance.ulps * max(
            frame.y.magnitude.ulp, (frame.y + frame.height).magnitude.ulp,
            rect.y.magnitude.ulp, (rect.y + rect.height).magnitude.ulp, frame.x.magnitude.ulp, rect.x.magnitude.ulp))
        let grown = Rect(x: rect.x - slack, y: rect.y - slack, width: rect.width + 2 * slack, height: rect.height + 2 * slack)
        let shrunk = Rect(x: rect.x + slack, y: rect.y + slack, width: rect.width - 2 * slack, height: rect.height - 2 * slack)
        return ReferenceLayout.intersects(frame, grown) != ReferenceLayout.intersects(frame, shrunk)
    }
}
