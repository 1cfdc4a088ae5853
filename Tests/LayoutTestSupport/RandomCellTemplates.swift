import LayoutEngine

/// Seeded random constraint templates of realistic cell shapes (docs/scenario-format.md, constraint templates), for the differential
/// tests: a vertical stack of rows inside random paddings — full-width labels, an avatar with a
/// label beside it (pinned or `<=` trailing), a photo with an aspect ratio, a pair of buttons
/// with intrinsic sizes — chained top to bottom, with a required or `@999` bottom and sometimes a
/// `>=` bottom. Every label's width is determined by required constraints or by its intrinsic
/// width against a required bound, so pass 1 is unambiguous and the heights are unique.
struct RandomCellTemplate: CustomStringConvertible, Sendable {
    var template: CellTemplate
    var text: [UInt8]
    var detail: [UInt8]
    var width: Double
    var seed: UInt64

    var description: String {
        "seed \(seed), width \(width), text \"\(String(decoding: text, as: UTF8.self))\", detail \"\(String(decoding: detail, as: UTF8.self))\", "
            + "\(template.constraints.count) constraints"
    }

    static let words = ["a", "the", "Feed", "constraint", "wrap", "Il", "mm", "WWW", "layout", "x", "tableView", "cell", "9:41", "—", "ok"]

    static func text(_ rng: inout SeededRandom) -> [UInt8] {
        let count = rng.chance(0.15) ? 0 : rng.int(1...40)
        return Array((0..<count).map { _ in rng.pick(words) }.joined(separator: " ").utf8)
    }

    static func make(seed: UInt64) -> RandomCellTemplate {
        var rng = SeededRandom(seed: seed)
        var views: [TemplateView] = []
        var constraints: [TemplateConstraint] = []
        let content = TemplateAnchor.contentView
        func a(_ v: Int, _ attribute: LayoutAttribute) -> TemplateAnchor { TemplateAnchor(view: v, attribute: attribute) }
        func add(_ c: TemplateConstraint) { constraints.append(c) }
        func label() -> TemplateView.Content {
            .label(TemplateLabel(source: rng.chance(0.5) ? .text : .detail, lineHeight: rng.pick([16, 18, 20.5, 24]),
                                 fontScale: rng.pick([0.76, 0.88, 1, 1.2]), maxLines: rng.pick([0, 0, 1, 2, 5])))
        }
        let left = rng.pick([0.0, 8, 16, 20]), right = rng.pick([0.0, 8, 16, 20])
        let top = rng.pick([0.0, 4, 11, 12]), bottom = rng.pick([0.0, 4, 11, 12])
        var previous: (view: Int, gap: Double)? = nil
        var tallest: Int? = nil
        for _ in 0..<rng.int(1...4) {
            let shape = rng.int(0...3)
            var rowViews: [Int] = []
            switch shape {
            case 0:  // a full-width label
                views.append(TemplateView(name: "label\(views.count)", content: label()))
                let v = views.count - 1
                add(TemplateConstraint(a(v, .leading), .equal, a(content, .leading), constant: left))
                add(TemplateConstraint(a(v, .trailing), .equal, a(content, .trailing), constant: -right))
                rowViews = [v]
            case 1:  // avatar and a label beside it
                let side = rng.pick([24.0, 32, 40])
                views.append(TemplateView(name: "avatar\(views.count)", content: rng.chance(0.5) ? .intrinsic(width: side, height: side) : .plain))
                let avatar = views.count - 1
                views.append(TemplateView(name: "label\(views.count)", content: label()))
                let v = views.count - 1
                add(TemplateConstraint(a(avatar, .leading), .equal, a(content, .leading), constant: left))
                add(TemplateConstraint(a(avatar, .width), .equal, nil, constant: side))
                add(TemplateConstraint(a(avatar, .height), .equal, a(avatar, .width)))
                add(TemplateConstraint(a(v, .leading), .equal, a(avatar, .trailing), constant: 8))
                add(TemplateConstraint(a(v, .trailing), rng.chance(0.5) ? .equal : .lessThanOrEqual, a(content, .trailing), constant: -right))
                add(TemplateConstraint(a(v, .top), .equal, a(avatar, .top)))
                rowViews = [avatar, v]
                tallest = avatar
            case 2:  // a photo with an aspect ratio
                views.append(TemplateView(name: "photo\(views.count)", content: .plain))
                let v = views.count - 1
                add(TemplateConstraint(a(v, .leading), .equal, a(content, .leading), constant: rng.chance(0.5) ? 0 : left))
                add(TemplateConstraint(a(v, .trailing), .equal, a(content, .trailing), constant: rng.chance(0.5) ? 0 : -right))
                add(TemplateConstraint(a(v, .height), .equal, a(v, .width), multiplier: rng.pick([0.5, 0.5625, 0.75, 1])))
                rowViews = [v]
            default:  // two buttons
                views.append(TemplateView(name: "primary\(views.count)", content: .intrinsic(width: rng.pick([60.0, 96, 120]), height: 44)))
                let p = views.count - 1
                views.append(TemplateView(name: "secondary\(views.count)", content: .intrinsic(width: rng.pick([60.0, 96, 120]), height: 44)))
                let s = views.count - 1
                add(TemplateConstraint(a(p, .leading), .equal, a(content, .leading), constant: left))
                add(TemplateConstraint(a(s, .leading), .equal, a(p, .trailing), constant: 8))
                add(TemplateConstraint(a(s, .trailing), .lessThanOrEqual, a(content, .trailing), constant: -right))
                add(TemplateConstraint(a(p, .width), .equal, a(s, .width), priority: 999))
                add(TemplateConstraint(a(s, .top), .equal, a(p, .top)))
                add(TemplateConstraint(a(s, .height), .equal, a(p, .height)))
                rowViews = [p, s]
            }
            let first = rowViews.last!
            let head = rowViews[0]
            if let previous {
                add(TemplateConstraint(a(head, .top), .equal, a(previous.view, .bottom), constant: previous.gap))
            } else {
                add(TemplateConstraint(a(head, .top), .equal, a(content, .top), constant: top))
            }
            // The row's bottom is its label's (a label under an avatar ends lower than either).
            previous = (first, rng.pick([0.0, 2, 4, 8]))
            if shape == 1 { add(TemplateConstraint(a(first, .bottom), .greaterThanOrEqual, a(head, .bottom), priority: 1000)) }
        }
        add(TemplateConstraint(a(content, .bottom), .equal, a(previous!.view, .bottom), constant: bottom, priority: rng.pick([1000, 999])))
        if let tallest, rng.chance(0.5) {
            add(TemplateConstraint(a(content, .bottom), .greaterThanOrEqual, a(tallest, .bottom), constant: bottom))
        }
        let template = CellTemplate(name: "random\(seed)", views: views, constraints: constraints)
        return RandomCellTemplate(template: template, text: text(&rng), detail: text(&rng), width: rng.double(120...1000).rounded(), seed: seed)
    }
}
