import Testing
@testable import LayoutEngine
import LayoutReference

@Suite struct RectTests {
    @Test func touchingEdgesDoNotIntersect() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(!a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)))
        #expect(!a.intersects(Rect(x: 0, y: 10, width: 5, height: 5)))
        #expect(!a.intersects(Rect(x: -5, y: -5, width: 5, height: 5)))
        #expect(a.intersects(Rect(x: 9.999, y: 9.999, width: 5, height: 5)))
    }

    @Test func emptyRectsIntersectNothing() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(!a.intersects(Rect(x: 5, y: 5, width: 0, height: 3)))
        #expect(!a.intersects(Rect(x: 5, y: 5, width: 3, height: 0)))
        #expect(!Rect(x: 5, y: 5, width: 0, height: 3).intersects(a))
        #expect(!a.intersects(Rect(x: 5, y: 5, width: -3, height: 3)))
        #expect(!a.intersects(Rect(x: 5, y: 5, width: .nan, height: 3)))
        #expect(Rect(x: 1, y: 1, width: 0, height: 1).isEmpty)
    }

    @Test func containmentAndOverlap() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(Rect(x: 2, y: 2, width: 1, height: 1)))
        #expect(Rect(x: 2, y: 2, width: 1, height: 1).intersects(a))
        #expect(a.intersects(Rect(x: -100, y: 5, width: 1000, height: 0.5)))
    }
}

@Suite struct ReferenceToleranceTests {
    @Test func absoluteBelowEightMillionPointsAndUlpsAbove() {
        #expect(ReferenceTolerance.equal(100, 100 + 0.9e-9))
        #expect(!ReferenceTolerance.equal(100, 100 + 2e-9))
        #expect(!ReferenceTolerance.equal(1_000, 1_000.000001))
        let large = 66_745_991.404426344
        #expect(ReferenceTolerance.equal(large, large.nextUp))
        #expect(ReferenceTolerance.equal(large, large + 8 * large.ulp))
        #expect(!ReferenceTolerance.equal(large, large + 9 * large.ulp))
        #expect(!ReferenceTolerance.equal(large, large + 1e-6))
    }
}
