import LayoutEngine
import LayoutReference
import BenchResults
import BenchScenarios

/// The scroll trace of `layout-self-sizing`, in offsets relative to the content as it is at each
/// step (which the measurements change): drags of 12 pt from the top, a fling from 120 pt a step
/// slowing by 5% a step, a jump to 60% of the content, and a scroll back up of 60 pt a step.
struct SelfSizingTrace {
    enum Move: CustomStringConvertible {
        /// Scroll by this many points.
        case by(Double)
        /// Jump to this fraction of the content height.
        case jump(Double)

        var description: String {
            switch self {
            case .by(let dy): return dy < 0 ? "up \(-dy) pt" : "down \(dy) pt"
            case .jump(let fraction): return "jump to \(Int(fraction * 100))% of the content"
            }
        }

        /// Where the step scrolls to from `offset`, clamped to the content.
        func target(from offset: Double, contentHeight: Double, viewportHeight: Double) -> Double {
            let y: Double
            switch self {
            case .by(let dy): y = offset + dy
            case .jump(let fraction): y = contentHeight * fraction
            }
            return Swift.min(Swift.max(0, y), Swift.max(0, contentHeight - viewportHeight))
        }
    }

    let moves: [Move]

    init(steps: Int) {
        let part = Swift.max(1, steps / 6)
        var moves: [Move] = Array(repeating: .by(12), count: part)
        var velocity = 120.0
        for _ in 0..<part {
            moves.append(.by(velocity))
            velocity *= 0.95
        }
        moves.append(.jump(0.6))
        while moves.count < steps { moves.append(.by(-60)) }
        self.moves = moves
    }
}
