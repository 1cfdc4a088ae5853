import Foundation
import Testing
import LayoutEngine

// docs/your-layout.md's first layout (the README points to it), verbatim between the markers; a
// test below checks that the page still shows exactly this code, so the example always compiles
// and works.
// README-EXAMPLE-BEGIN
/// A grid of equal square cells: four per row.
struct SquareGrid: CollectionLayout {
    var count: Int
    var bounds: Rect
    private var side = 0.0

    init(count: Int, bounds: Rect) { self.count = count; self.bounds = bounds }

    var contentSize: Size { Size(width: bounds.width, height: side * Double((count + 3) / 4)) }
    mutating func prepare() throws { side = bounds.width / 4 }
    mutating func invalidate(with context: InvalidationContext) {
        if let newBounds = context.newBounds { bounds = newBounds }
    }
    func shouldInvalidate(forBoundsChange newBounds: Rect) -> Bool { newBounds.width != bounds.width }

    func elements(in rect: Rect, into results: inout [LayoutAttributes]) {
        results.removeAll(keepingCapacity: true)          // no allocation once the buffer has capacity
        guard !rect.isEmpty, side > 0 else { return }
        let firstRow = max(0, Int((rect.minY / side).rounded(.down)))
        let lastRow = min((count - 1) / 4, Int((rect.maxY / side).rounded(.up)))
        guard firstRow <= lastRow else { return }
        for index in (firstRow * 4)..<min(count, (lastRow + 1) * 4) {
            let attributes = try! attributes(for: .item(index, section: 0))
            if attributes.frame.intersects(rect) { results.append(attributes) }
        }
    }

    func attributes(for element: ElementID) throws -> LayoutAttributes {
        guard element.kind == .item, element.section == 0, (0..<count).contains(element.index) else {
            throw LayoutError(field: "element", reason: .noSuchElement(element))
        }
        let frame = Rect(x: Double(element.index % 4) * side, y: Double(element.index / 4) * side, width: side, height: side)
        return LayoutAttributes(id: element, frame: frame)
    }
}
// README-EXAMPLE-END

@Suite struct ReadmeExampleTests {
    @Test func theExampleLayoutWorksThroughTheProtocol() throws {
        var layout: any CollectionLayout = SquareGrid(count: 10, bounds: Rect(x: 0, y: 0, width: 400, height: 800))
        try layout.prepare()
        #expect(layout.contentSize == Size(width: 400, height: 300))
        var results: [LayoutAttributes] = []
        layout.elements(in: Rect(x: 0, y: 150, width: 400, height: 10), into: &results)
        #expect(results.map(\.id.index).sorted() == [4, 5, 6, 7])
        layout.elements(in: Rect(x: 0, y: 200, width: 400, height: 100), into: &results)
        #expect(results.map(\.id.index).sorted() == [8, 9])
        #expect(throws: LayoutError.self) { try layout.attributes(for: .item(10, section: 0)) }
        #expect(layout.shouldInvalidate(forBoundsChange: Rect(x: 0, y: 0, width: 300, height: 800)))
    }

    @Test func yourLayoutPageShowsThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/your-layout.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let begin = source.range(of: "// README-EXAMPLE-BEGIN\n")!, end = source.range(of: "// README-EXAMPLE-END")!
        let example = String(source[begin.upperBound..<end.lowerBound])
        #expect(readme.contains(example), "docs/your-layout.md's first layout differs from ReadmeExampleTests.swift")
    }
}
