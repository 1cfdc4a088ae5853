import Testing
import PropertyBased
@testable import LayoutEngine
@testable import LayoutTestSupport

/// A mode may keep state between queries (the scroll-coherent one does), so besides the single
/// rects of `QueryDifferentialTests` every exact mode is checked along scroll traces: small drags,
/// flings, rects whose edge touches an element's edge (and one ulp either side), jumps,
/// rubber-band pulls above the top and past the end, and changes of x range and height. Every
/// answer must hold exactly `linear`'s elements, each once (answers are compared as sets).
@Suite(.shrinking) struct QueryTraceTests {
    /// One step of a trace: `kind` picks how the rect moves, `value` and `sign` by how much.
    struct Step: Sendable, CustomStringConvertible {
        var kind: Int
        var value: Double
        var pick: Int

        var description: String { "Step(\(kind), \(value), \(pick))" }

        static let generator = zip(Gen.int(in: 0...11), Gen.double(in: 0...1), Gen.int(in: 0...1_000_000))
            .map { Step(kind: $0, value: $1, pick: $2) }

        /// The rect after this step from `rect`.
        func apply(to rect: Rect, frames: LayoutFrames, elements: [LayoutAttributes]) -> Rect {
            var rect = rect
            let direction: Double = pick % 2 == 0 ? 1 : -1
            let element = elements.isEmpty ? nil : elements[pick % elements.count].frame
            switch kind {
            case 0, 1, 2:  // a drag: under 8 pt
                rect.y += direction * value * 8
            case 3, 4:  // a fling
                rect.y += direction * (30 + value * 400)
            case 5:  // the top touches an element's bottom, or one ulp either side
                if let element { rect.y = nudge(element.maxY) }
            case 6:  // the bottom touches an element's top, or one ulp either side
                if let element { rect.y = nudge(element.minY) - rect.height }
            case 7:  // a jump anywhere, including the rubber band above 0 and past the end
                rect.y = -900 + value * (frames.contentHeight + 1800)
            case 8:  // a new x range
                rect.x = -20 + value * (frames.contentWidth + 20)
                rect.width = [frames.contentWidth, 1, 60, 390][pick % 4]
            case 9:  // a new height, sometimes empty
                rect.height = [844, 0, 0.5, 2000][pick % 4] * (pick % 5 == 0 ? value : 1)
            case 10:  // the same rect again
                break
            default:  // back to a full-width viewport at the same offset
                rect.x = 0
                rect.width = frames.contentWidth
                rect.height = 844
            }
            return rect
        }

        private func nudge(_ y: Double) -> Double {
            switch pick % 3 {
            case 0: return y
            case 1: return y.nextUp
            default: return y.nextDown
            }
        }
    }

    /// 6 chunks × 100 random layouts × up to 120 steps, in every exact mode.
    @Test(arguments: 0..<6)
    func everyExactModeMatchesLinearAlongTraces(chunk: Int) async {
        await propertyCheck(count: 100, input: RandomFrames.generator, Step.generator.array(of: 1...120)) { random, steps in
            let frames = random.frames
            let elements = frames.allElements()
            let linear = LinearQuery(frames: frames)
            let indexes = QueryDifferentialTests.exactModes.map { ($0.rawValue, $0.make(frames: frames)) }
            var rect = Rect(x: 0, y: 0, width: frames.contentWidth, height: 844)
            var answer: [LayoutAttributes] = [], expected: [LayoutAttributes] = []
            for (index, step) in steps.enumerated() {
                rect = step.apply(to: rect, frames: frames, elements: elements)
                linear.elements(in: rect, frames: frames, into: &expected)
                expected.sort { $0.id < $1.id }
                for (name, mode) in indexes {
                    mode.elements(in: rect, frames: frames, into: &answer)
                    answer.sort { $0.id < $1.id }
                    if answer != expected {
                        Issue.record("\(name), step \(index) \(step), rect \(rect): returned \(answer.map(\.id)), linear \(expected.map(\.id))")
                        return
                    }
                }
            }
        }
    }
}
