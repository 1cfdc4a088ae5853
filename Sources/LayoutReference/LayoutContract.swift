import LayoutEngine

/// What any correct `CollectionLayout` must satisfy, checked with no knowledge of its geometry:
/// the verification of a layout nobody here wrote (the generic workloads' `layout-prepare` and
/// `layout-query`, docs/your-layout.md).
///
/// - **Elements.** The elements of a layout are every item of its data (`attributes(for:)` must
///   answer for each), the header, footer and decoration (index 0) of each section for which
///   `attributes(for:)` answers, and any other element a query returns for which it answers.
/// - **Frames** (`frames`): every element's frame is finite with width and height >= 0, and lies
///   inside `(0, 0, contentSize)` within `ReferenceTolerance` (a pinned element inside the box
///   around the content and the bounds it was prepared for); `contentSize` is finite and >= 0.
/// - **Queries** (`query`): for each rect, `elements(in:into:)` returns each element at most once,
///   every returned element's attributes equal `attributes(for:)`'s (frame within the tolerance,
///   pinning and zIndex exactly), and the set of returned elements is exactly the brute force:
///   the elements whose `attributes(for:)` frame intersects the rect.
///
/// "Intersects" is `Rect.intersects`, restated here on purpose (`intersects(_:_:)`): rectangles
/// are half-open, so two rects that only touch along an edge do not intersect, and a rect with a
/// zero, negative or NaN width or height (or one too thin to move its far edge in `Double`)
/// intersects nothing.
public enum LayoutContract {
    /// The engine's intersection rule, written out independently: both rects have positive
    /// extent along both axes, and their open interiors overlap along both axes.
    public static func intersects(_ a: Rect, _ b: Rect) -> Bool {
        let aMaxX = a.x + a.width, aMaxY = a.y + a.height, bMaxX = b.x + b.width, bMaxY = b.y + b.height
        guard a.x < aMaxX, a.y < aMaxY, b.x < bMaxX, b.y < bMaxY else { return false }
        return a.x < bMaxX && b.x < aMaxX && a.y < bMaxY && b.y < aMaxY
    }

    /// A broken rule: which check, at which step (a query's rect, the prepare), the first wrong
    /// element (lowest `ElementID` among the wrong ones), and what is wrong with it.
    public struct Violation: Error, Hashable, Sendable, CustomStringConvertible {
        public var check: String
        public var step: String
        public var element: ElementID?
        public var detail: String

        public init(check: String, step: String, element: ElementID?, detail: String) {
            self.check = check
            self.step = step
            self.element = element
            self.detail = detail
        }

        public var description: String {
            "check \(check) at \(step)" + (element.map { ": element \($0)" } ?? "") + ": \(detail)"
        }
    }

    /// Every element of `layout` and its attributes, sorted by ID (items of `data`, and the
    /// supplementary elements `attributes(for:)` answers for), checked by the frame rules.
    /// `bounds` is the viewport the layout was prepared for (where pinned elements must lie).
    ///
    /// `pinnedMayStack`: pinned elements may also lie below that box by up to the summed heights of
    /// all the pinned elements — pinned headers that stack (each below the ones pinned before it)
    /// run past the bottom of the viewport, and of the content, when more are pinned than fit.
    /// Used after a bounds change, when elements pin at any offset.
    public static func elements(
        of layout: some CollectionLayout, data: LayoutData, bounds: Rect, step: String, pinnedMayStack: Bool = false
    ) throws(Violation) -> [LayoutAttributes] {
        if pinnedMayStack {
            let all = try collectElements(of: layout, data: data, bounds: nil, step: step)
            let slack = all.reduce(0.0) { $0 + ($1.isPinned ? $1.frame.height : 0) }
            for attributes in all {
                try checkFrame(attributes, requested: attributes.id, size: layout.contentSize, bounds: bounds, step: step, pinnedSlackBelow: slack)
            }
            return all
        }
        return try collectElements(of: layout, data: data, bounds: bounds, step: step)
    }

    /// Every element, by the frame rules when `bounds` is given (unchecked otherwise).
    private static func collectElements(
        of layout: some CollectionLayout, data: LayoutData, bounds: Rect?, step: String
    ) throws(Violation) -> [LayoutAttributes] {
        let size = layout.contentSize
        guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else {
            throw Violation(check: "content-size", step: step, element: nil, detail: "contentSize (\(size.width), \(size.height)) is not finite and >= 0")
        }
        var elements: [LayoutAttributes] = []
        elements.reserveCapacity(data.itemCount + 3 * data.sectionCount)
        for section in 0..<data.sectionCount {
            for index in 0..<data.itemCount(inSection: section) {
                let id = ElementID.item(index, section: section)
                let attributes: LayoutAttributes
                do {
                    attributes = try layout.attributes(for: id)
                } catch {
                    throw Violation(check: "attributes", step: step, element: id, detail: "attributes(for:) threw for an item of the data: \(error)")
                }
                if let bounds { try checkFrame(attributes, requested: id, size: size, bounds: bounds, step: step) }
                elements.append(attributes)
            }
            for id in [ElementID.header(section: section), .footer(section: section), .decoration(section: section)] {
                if let attributes = try? layout.attributes(for: id) {
                    if let bounds { try checkFrame(attributes, requested: id, size: size, bounds: bounds, step: step) }
                    elements.append(attributes)
                }
            }
        }
        return elements.sorted { $0.id < $1.id }
    }

    /// The first violation of the contract by `layout` on `rects` (each with the name of its step,
    /// "trace frame 12", "random rect 3"), or nil. `data` is the data it was built from.
    public static func firstViolation(
        of layout: some CollectionLayout, data: LayoutData, bounds: Rect, rects: [(step: String, rect: Rect)],
        prepareStep: String = "prepare"
    ) -> Violation? {
        do throws(Violation) {
            var universe = try elements(of: layout, data: data, bounds: bounds, step: prepareStep)
            var known = Dictionary(uniqueKeysWithValues: universe.map { ($0.id, $0) })
            let size = layout.contentSize
            var answers: [[LayoutAttributes]] = []
            answers.reserveCapacity(rects.count)
            var buffer: [LayoutAttributes] = []
            // Every answer first: an element that only a query reveals joins the universe.
            for (step, rect) in rects {
                layout.elements(in: rect, into: &buffer)
                for returned in buffer where known[returned.id] == nil {
                    guard let attributes = try? layout.attributes(for: returned.id) else {
                        throw Violation(check: "attributes-agree", step: step, element: returned.id,
                                        detail: "the query returned it, but attributes(for:) throws for it")
                    }
                    try checkFrame(attributes, requested: returned.id, size: size, bounds: bounds, step: step)
                    known[returned.id] = attributes
                    universe.append(attributes)
                }
                answers.append(buffer)
            }
            for (i, (step, rect)) in rects.enumerated() {
                if let violation = difference(answers[i], universe: universe, known: known, rect: rect, step: step) { throw violation }
            }
            return nil
        } catch {
            return error
        }
    }

    /// The contract at one step of a scroll, after the bounds change to `bounds` and the layout's
    /// `prepare()`: every element's frame by the frame rules (a pinned one inside the box around
    /// the content and these bounds), and `answer` — what `elements(in: rect, into:)` returned at
    /// this step — exactly the brute force over every element's current `attributes(for:)`,
    /// pinned ones included. Returns every element (sorted by ID, with any the answer revealed).
    public static func elementsAfterBoundsChange(
        of layout: some CollectionLayout, answer: [LayoutAttributes], rect: Rect, data: LayoutData, bounds: Rect, step: String
    ) throws(Violation) -> [LayoutAttributes] {
        var universe = try elements(of: layout, data: data, bounds: bounds, step: step, pinnedMayStack: true)
        // The returned elements' attributes, found in the sorted universe (no table of every element:
        // this runs at every step of a scroll).
        var known: [ElementID: LayoutAttributes] = [:]
        var revealed: [LayoutAttributes] = []
        for returned in answer where known[returned.id] == nil {
            var low = 0, high = universe.count
            while low < high {
                let middle = (low + high) / 2
                if universe[middle].id < returned.id { low = middle + 1 } else { high = middle }
            }
            if low < universe.count, universe[low].id == returned.id {
                known[returned.id] = universe[low]
                continue
            }
            guard let attributes = try? layout.attributes(for: returned.id) else {
                throw Violation(check: "attributes-agree", step: step, element: returned.id,
                                detail: "the query returned it, but attributes(for:) throws for it")
            }
            try checkFrame(attributes, requested: returned.id, size: layout.contentSize, bounds: bounds, step: step)
            known[returned.id] = attributes
            revealed.append(attributes)
        }
        if !revealed.isEmpty {
            universe += revealed
            universe.sort { $0.id < $1.id }
        }
        if let violation = difference(answer, universe: universe, known: known, rect: rect, step: step) { throw violation }
        return universe
    }

    /// How `answer` differs from the brute force over `universe` for `rect`, or nil.
    static func difference(
        _ answer: [LayoutAttributes], universe: [LayoutAttributes], known: [ElementID: LayoutAttributes], rect: Rect, step: String
    ) -> Violation? {
        var wrong: [(ElementID, String, String)] = []
        var seen = Set<ElementID>()
        for returned in answer {
            if !seen.insert(returned.id).inserted {
                wrong.append((returned.id, "unique", "returned more than once for rect \(rect)"))
                continue
            }
            guard let attributes = known[returned.id] else { continue }
            if !ReferenceTolerance.equal(returned.frame, attributes.frame) || returned.isPinned != attributes.isPinned
                || returned.zIndex != attributes.zIndex {
                wrong.append((returned.id, "attributes-agree",
                              "the query returned frame \(returned.frame) pinned \(returned.isPinned) zIndex \(returned.zIndex), "
                                  + "attributes(for:) gives \(attributes.frame) pinned \(attributes.isPinned) zIndex \(attributes.zIndex)"))
            } else if !intersects(attributes.frame, rect) {
                wrong.append((returned.id, "query-extra", "returned for rect \(rect), but its frame \(attributes.frame) does not intersect it"))
            }
        }
        for element in universe where intersects(element.frame, rect) && !seen.contains(element.id) {
            wrong.append((element.id, "query-missing", "its frame \(element.frame) intersects rect \(rect), but the query did not return it"))
        }
        guard let first = wrong.min(by: { $0.0 < $1.0 }) else { return nil }
        return Violation(check: first.1, step: step, element: first.0, detail: first.2)
    }

    /// The frame rules for one element (`requested` is the ID that was asked for).
    static func checkFrame(
        _ attributes: LayoutAttributes, requested: ElementID, size: Size, bounds: Rect, step: String, pinnedSlackBelow: Double = 0
    ) throws(Violation) {
        if attributes.id != requested {
            throw Violation(check: "attributes", step: step, element: requested, detail: "attributes(for:) returned the attributes of \(attributes.id)")
        }
        let f = attributes.frame
        guard f.x.isFinite, f.y.isFinite, f.width.isFinite, f.height.isFinite else {
            throw Violation(check: "frame-finite", step: step, element: requested, detail: "frame \(f) is not finite")
        }
        guard f.width >= 0, f.height >= 0 else {
            throw Violation(check: "frame-size", step: step, element: requested, detail: "frame \(f) has a negative size")
        }
        // A pinned element sits at its natural place or moves with the bounds: it must lie within
        // the content and the bounds together.
        let content = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let area = attributes.isPinned
            ? Rect(x: min(0, bounds.minX), y: min(0, bounds.minY),
                   width: max(content.maxX, bounds.maxX) - min(0, bounds.minX), height: max(content.maxY, bounds.maxY) - min(0, bounds.minY))
            : content
        let t = ReferenceTolerance.absolute
        let below = attributes.isPinned ? pinnedSlackBelow : 0
        guard f.minX >= area.minX - t, f.minY >= area.minY - t, f.maxX <= area.maxX + t, f.maxY <= area.maxY + below + t else {
            let what = attributes.isPinned ? "the pinned element's frame \(f) lies outside both the content and the bounds \(bounds)"
                : "frame \(f) lies outside the content (0, 0, \(size.width), \(size.height))"
            throw Violation(check: "frame-inside", step: step, element: requested, detail: what)
        }
    }

    /// The first element whose frame differs from `expected`'s (the same set of elements, frames
    /// within `ReferenceTolerance`), or nil: a layout after a relayout against its fresh layout,
    /// or against the reference geometry of `sameGeometryAs`.
    public static func firstDifference(
        of actual: [LayoutAttributes], from expected: [ReferenceElement], check: String, step: String
    ) -> Violation? {
        let actualByID = Dictionary(actual.map { ($0.id, $0.frame) }, uniquingKeysWith: { first, _ in first })
        let expectedIDs = Set(expected.map(\.id))
        var wrong: [(ElementID, String)] = []
        for element in expected {
            guard let frame = actualByID[element.id] else {
                wrong.append((element.id, "missing: expected frame \(element.frame)"))
                continue
            }
            if !ReferenceTolerance.equal(frame, element.frame) { wrong.append((element.id, "frame \(frame), expected \(element.frame)")) }
        }
        for element in actual where !expectedIDs.contains(element.id) {
            wrong.append((element.id, "not expected: frame \(element.frame)"))
        }
        guard let first = wrong.min(by: { $0.0 < $1.0 }) else { return nil }
        return Violation(check: check, step: step, element: first.0, detail: first.1)
    }
}
