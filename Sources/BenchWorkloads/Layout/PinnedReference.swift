import BenchStatistics
import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The reference geometry, with the built-in pinning, of a kind that declares `sameGeometryAs`.
struct PinnedReference {
    let reference: ReferenceLayout
    /// Every element's natural frame, sorted by ID.
    let natural: [ReferenceElement]
    let pinOffset: Double
    let kind: String

    /// Nil when the kind declares no `sameGeometryAs`. `width` is the content width (by default
    /// the scenario viewport's; `layout-resize` asks for each width of its trace).
    init?(build: LayoutBuild, mode: LayoutStrategyMode, width: Double? = nil) throws {
        guard let same = build.kind(of: mode).sameGeometryAs else { return nil }
        do {
            let layout = try build.geometryLayout(same, mode: mode)
            reference = try ReferenceLayout(data: build.data, styles: layout.styles, viewportWidth: width ?? build.scenario.viewport.width)
            pinOffset = layout.pinOffset
            kind = same.kind
        } catch {
            throw build.failure(mode, LayoutContract.Violation(
                check: "same-geometry", step: "prepare", element: nil, detail: "the built-in \(same.kind) layout it declares cannot be built: \(error)"))
        }
        natural = reference.allElements()
    }

    /// The first element (lowest ID) of `elements` — a layout's, sorted by ID, after the bounds
    /// change to `bounds` — whose frame differs from the reference's at that offset, pinned headers
    /// and footers included, or that one of them lacks. A merge of the two sorted lists: this runs
    /// at every step of a scroll.
    func firstDifference(of elements: [LayoutAttributes], bounds: Rect, step: String) -> LayoutContract.Violation? {
        let pinned = Dictionary(
            reference.pinnableSupplementaries(pinOffset: pinOffset, offset: bounds.minY, viewportHeight: bounds.height).map { ($0.id, $0.frame) },
            uniquingKeysWith: { first, _ in first })
        func violation(_ id: ElementID, _ detail: String) -> LayoutContract.Violation {
            LayoutContract.Violation(check: "same-geometry (pinned, as built-in \(kind))", step: step, element: id, detail: detail)
        }
        var i = 0, j = 0
        while i < elements.count || j < natural.count {
            if j == natural.count || (i < elements.count && elements[i].id < natural[j].id) {
                return violation(elements[i].id, "not expected: frame \(elements[i].frame)")
            }
            let expected = pinned[natural[j].id] ?? natural[j].frame
            if i == elements.count || natural[j].id < elements[i].id {
                return violation(natural[j].id, "missing: expected frame \(expected)")
            }
            if !ReferenceTolerance.equal(elements[i].frame, expected) {
                return violation(elements[i].id, "frame \(elements[i].frame), expected \(expected)")
            }
            i += 1
            j += 1
        }
        return nil
    }
}
