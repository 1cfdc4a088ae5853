import BenchStatistics
import BenchPlatform
import BenchResults
import BenchScenarios
import BenchWorkloads
import BenchRunner
import LayoutEngine

/// Cell-shaped constraint systems for the benchmark: the feed of issue 20 (a post with avatar,
/// name, timestamp, body and photo; a comment; an ad with a button row), as a XIB would
/// constrain them, with Interface Builder's priorities (hugging 250/251, compression resistance
/// 750, `@999` bottoms, the fitting size's `contentView.height == 0 @50`). Label sizes are fixed
/// per row (random text widths and line counts): one pass of the measurement.
struct FeedCells {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + random.next(below: range.count)
    }

    /// Rotation: the widths each row is measured at.
    static let widths: [Double] = [320, 414, 375, 768, 1024, 360]

    mutating func system(row: Int) -> BenchSystem {
        var cell = CellBuilder()
        switch row % 4 {
        case 0, 1: post(&cell)
        case 2: comment(&cell)
        default: ad(&cell)
        }
        let kind = row % 4 < 2 ? "post" : row % 4 == 2 ? "comment" : "ad"
        return BenchSystem(name: "\(kind)-\(row)", variableCount: cell.variableCount, widthVariable: 0, heightVariable: 1,
                           constraints: cell.constraints, widths: Self.widths)
    }

    private mutating func label(_ cell: inout CellBuilder, lineHeight: Double, maxLines: Int) -> Int {
        let view = cell.addView()
        let textWidth = Double(int(20...400))
        let lines = Double(int(1...maxLines))
        cell.intrinsic(view, width: maxLines == 1 ? textWidth : nil, height: lines * lineHeight, hugging: 251)
        return view
    }

    private mutating func post(_ cell: inout CellBuilder) {
        let avatar = cell.addView()
        let name = label(&cell, lineHeight: 20.5, maxLines: 1)
        let time = label(&cell, lineHeight: 16, maxLines: 1)
        let body = label(&cell, lineHeight: 18, maxLines: 8)
        let photo = cell.addView()
        cell.add(avatar, .leading, .equal, CellBuilder.content, .leading, constant: 16)
        cell.add(avatar, .top, .equal, CellBuilder.content, .top, constant: 12)
        cell.size(avatar, .width, .equal, 40)
        cell.add(avatar, .height, .equal, avatar, .width)
        cell.add(name, .leading, .equal, avatar, .trailing, constant: 8)
        cell.add(name, .top, .equal, avatar, .top)
        cell.add(time, .leading, .greaterThanOrEqual, name, .trailing, constant: 8)
        cell.add(time, .trailing, .equal, CellBuilder.content, .trailing, constant: -16)
        cell.add(time, .top, .equal, name, .top)
        cell.add(body, .leading, .equal, name, .leading)
        cell.add(body, .trailing, .equal, CellBuilder.content, .trailing, constant: -16)
        cell.add(body, .top, .equal, name, .bottom, constant: 4)
        cell.add(photo, .leading, .equal, CellBuilder.content, .leading)
        cell.add(photo, .trailing, .equal, CellBuilder.content, .trailing)
        cell.add(photo, .height, .equal, photo, .width, multiplier: 0.75)
        cell.add(photo, .top, .equal, body, .bottom, constant: 8)
        cell.add(CellBuilder.content, .bottom, .greaterThanOrEqual, avatar, .bottom, constant: 12)
        cell.add(CellBuilder.content, .bottom, .equal, photo, .bottom, constant: 12, priority: 999)
    }

    private mutating func comment(_ cell: inout CellBuilder) {
        let avatar = cell.addView()
        let name = label(&cell, lineHeight: 18, maxLines: 1)
        let body = label(&cell, lineHeight: 18, maxLines: 5)
        cell.add(avatar, .leading, .equal, CellBuilder.content, .leading, constant: 56)
        cell.add(avatar, .top, .equal, CellBuilder.content, .top, constant: 8)
        cell.size(avatar, .width, .equal, 32)
        cell.size(avatar, .height, .equal, 32)
        cell.add(name, .leading, .equal, avatar, .trailing, constant: 8)
        cell.add(name, .trailing, .lessThanOrEqual, CellBuilder.content, .trailing, constant: -16)
        cell.add(name, .top, .equal, avatar, .top)
        cell.add(body, .leading, .equal, name, .leading)
        cell.add(body, .trailing, .equal, CellBuilder.content, .trailing, constant: -16)
        cell.add(body, .top, .equal, name, .bottom, constant: 2)
        cell.add(CellBuilder.content, .bottom, .greaterThanOrEqual, avatar, .bottom, constant: 8)
        cell.add(CellBuilder.content, .bottom, .equal, body, .bottom, constant: 10, priority: 999)
    }

    private mutating func ad(_ cell: inout CellBuilder) {
        let title = label(&cell, lineHeight: 20.5, maxLines: 1)
        let body = label(&cell, lineHeight: 18, maxLines: 4)
        let primary = cell.addView(), secondary = cell.addView()
        cell.intrinsic(primary, width: Double(int(60...140)), height: 44, hugging: 250)
        cell.intrinsic(secondary, width: Double(int(60...140)), height: 44, hugging: 250)
        cell.add(title, .leading, .equal, CellBuilder.content, .leading, constant: 16)
        cell.add(title, .trailing, .lessThanOrEqual, CellBuilder.content, .trailing, constant: -16)
        cell.add(title, .top, .equal, CellBuilder.content, .top, constant: 12)
        cell.add(body, .leading, .equal, title, .leading)
        cell.add(body, .trailing, .equal, CellBuilder.content, .trailing, constant: -16)
        cell.add(body, .top, .equal, title, .bottom, constant: 4)
        cell.add(primary, .leading, .equal, CellBuilder.content, .leading, constant: 16)
        cell.add(secondary, .leading, .equal, primary, .trailing, constant: 8)
        cell.add(secondary, .trailing, .lessThanOrEqual, CellBuilder.content, .trailing, constant: -16)
        cell.add(primary, .width, .equal, secondary, .width, priority: 999)
        cell.add(primary, .top, .equal, body, .bottom, constant: 12)
        cell.add(secondary, .top, .equal, primary, .top)
        cell.add(CellBuilder.content, .bottom, .equal, primary, .bottom, constant: 12, priority: 999)
        cell.add(CellBuilder.content, .bottom, .greaterThanOrEqual, secondary, .bottom, constant: 12)
    }
}

/// Views and NSLayoutConstraint-style equations as solver rows. Variable 0 is the content view's
/// width, 1 its height (its leading and top are 0); each view adds x, y, width, height.
struct CellBuilder {
    enum Attribute { case leading, trailing, width, top, bottom, height }
    static let content = -1
    private(set) var variableCount = 2
    private(set) var constraints: [BenchSystem.Constraint] = []

    init() {
        // The fitting size: the smallest height the rest allows.
        constraints.append(.init(priority: 50, relation: .equal, constant: 0, terms: [(1, 1)]))
    }

    mutating func addView() -> Int {
        variableCount += 4
        return (variableCount - 6) / 4
    }

    private func terms(_ view: Int, _ attribute: Attribute) -> [(variable: Int, coefficient: Double)] {
        if view < 0 {
            switch attribute {
            case .leading, .top: return []
            case .trailing, .width: return [(0, 1)]
            case .bottom, .height: return [(1, 1)]
            }
        }
        let x = 2 + 4 * view
        switch attribute {
        case .leading: return [(x, 1)]
        case .trailing: return [(x, 1), (x + 2, 1)]
        case .width: return [(x + 2, 1)]
        case .top: return [(x + 1, 1)]
        case .bottom: return [(x + 1, 1), (x + 3, 1)]
        case .height: return [(x + 3, 1)]
        }
    }

    /// `a.attrA REL multiplier * b.attrB + constant @priority`.
    mutating func add(_ a: Int, _ attrA: Attribute, _ relation: ConstraintRelation, _ b: Int, _ attrB: Attribute,
                      multiplier: Double = 1, constant: Double = 0, priority: Double = 1000) {
        var list = terms(a, attrA)
        for t in terms(b, attrB) { list.append((t.variable, -multiplier * t.coefficient)) }
        constraints.append(.init(priority: priority, relation: relation, constant: -constant, terms: list))
    }

    mutating func size(_ a: Int, _ attribute: Attribute, _ relation: ConstraintRelation, _ value: Double, priority: Double = 1000) {
        constraints.append(.init(priority: priority, relation: relation, constant: -value, terms: terms(a, attribute)))
    }

    /// Intrinsic content size: compression resistance 750 (`>=`) and hugging (`<=`).
    mutating func intrinsic(_ view: Int, width: Double?, height: Double?, hugging: Double) {
        if let width {
            size(view, .width, .greaterThanOrEqual, width, priority: 750)
            size(view, .width, .lessThanOrEqual, width, priority: hugging)
        }
        if let height {
            size(view, .height, .greaterThanOrEqual, height, priority: 750)
            size(view, .height, .lessThanOrEqual, height, priority: hugging)
        }
    }
}
