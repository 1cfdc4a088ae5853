/// A prototype cell as a XIB describes it (docs/scenario-format.md, constraint templates): views with intrinsic sizes, and
/// NSLayoutConstraint-style equations between their attributes. `contentView` is implicit
/// (`TemplateAnchor.contentView`). A template is a plain value; `TemplateMeasurer` solves it.
///
/// The scenario parser builds templates from `data.templates` (strings such as
/// `"name.leading == avatar.trailing + 8 @999"`), and the built-in row kinds have templates of
/// their own (`CellTemplate.builtIn(_:)`), each with its hand-written closed form (`closedForm`).
public struct CellTemplate: Hashable, Sendable, Codable {
    public var name: String
    public var views: [TemplateView]
    public var constraints: [TemplateConstraint]
    /// The width the cell's accessory takes from the row (the content view is the row's width
    /// minus this, as FD measures). 0 for templates written in scenarios.
    public var accessoryWidth: Double
    /// The built-in row kind this template writes as constraints, whose hand-written closed
    /// form (`BuiltInRowKind.rowTemplate`) is the `frame` mode; nil for scenario templates.
    public var builtIn: BuiltInRowKind?

    public init(name: String, views: [TemplateView], constraints: [TemplateConstraint], accessoryWidth: Double = 0, builtIn: BuiltInRowKind? = nil) {
        self.name = name
        self.views = views
        self.constraints = constraints
        self.accessoryWidth = accessoryWidth
        self.builtIn = builtIn
    }

    /// The index of the view called `name`, or nil (`contentView` is not in `views`).
    public func viewIndex(named name: String) -> Int? { views.firstIndex { $0.name == name } }

    /// Whether any label shows the row's detail text.
    public var usesDetail: Bool {
        views.contains { if case .label(let label) = $0.content { return label.source == .detail } else { return false } }
    }

    /// The separator FD adds to every fitting height (`1 / scale`).
    public static let separatorHeight = 0.5

    /// The row height for a fitting height: the separator added, and 0 falling back to 44, as
    /// for the built-in rows (`RowTemplate.fallbackHeight`).
    @inlinable
    public static func rowHeight(fitting: Double) -> Double {
        (fitting == 0 ? RowTemplate.fallbackHeight : fitting) + separatorHeight
    }
}

/// One view of a template.
public struct TemplateView: Hashable, Sendable, Codable {
    public enum Content: Hashable, Sendable, Codable {
        /// No intrinsic size (`{}`).
        case plain
        /// A fixed intrinsic size; either side may be absent.
        case intrinsic(width: Double?, height: Double?)
        /// A label showing the row's text or detail.
        case label(TemplateLabel)
    }

    public var name: String
    public var content: Content
    public var hugging: AxisPriorities
    public var compressionResistance: AxisPriorities

    /// Interface Builder's defaults: hugging 251 for labels, 250 for other views; compression
    /// resistance 750.
    public init(name: String, content: Content, hugging: AxisPriorities? = nil, compressionResistance: AxisPriorities? = nil) {
        self.name = name
        self.content = content
        if case .label = content {
            self.hugging = hugging ?? AxisPriorities(horizontal: 251, vertical: 251)
        } else {
            self.hugging = hugging ?? AxisPriorities(horizontal: 250, vertical: 250)
        }
        self.compressionResistance = compressionResistance ?? AxisPriorities(horizontal: 750, vertical: 750)
    }
}

/// A priority per axis (content hugging, compression resistance).
public struct AxisPriorities: Hashable, Sendable, Codable {
    public var horizontal: Double
    public var vertical: Double

    public init(horizontal: Double, vertical: Double) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

/// A label: which text of the row it shows, and how that text is laid out: with no `font`, the
/// table model (`TemplateCell`'s greedy word wrap, no padding, advances scaled by `fontScale`);
/// with a `font`, by a text engine (`LabelTextMeasuring`: real glyph advances, UAX #14 line
/// breaks), `fontScale` unused.
public struct TemplateLabel: Hashable, Sendable, Codable {
    public enum Source: String, CaseIterable, Hashable, Sendable, Codable { case text, detail }

    public var source: Source
    public var lineHeight: Double
    public var fontScale: Double
    /// The most lines shown; 0 = unlimited.
    public var maxLines: Int
    /// The font of a label measured by a text engine; nil for the table model.
    public var font: LabelFont?

    public init(source: Source, lineHeight: Double = 20.5, fontScale: Double = 1, maxLines: Int = 0, font: LabelFont? = nil) {
        self.source = source
        self.lineHeight = lineHeight
        self.fontScale = fontScale
        self.maxLines = maxLines
        self.font = font
    }

    /// The text model: `TemplateCell` without padding.
    public var cell: TemplateCell {
        TemplateCell(lineHeight: lineHeight, fontScale: fontScale, padding: EdgeInsets(top: 0, left: 0, bottom: 0, right: 0))
    }

    /// The intrinsic width: the text on one line, the sum of its advances (spaces included) times
    /// the font scale. Contiguous bytes (an `ArraySlice`, a native `String`'s UTF-8) are read as
    /// a buffer.
    @inlinable
    public func intrinsicWidth<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> Double {
        if let sum = bytes.withContiguousStorageIfAvailable({ Self.advanceSum(of: $0) }) { return sum * fontScale }
        return Self.advanceSum(of: bytes) * fontScale
    }

    /// The sum of the advances, spaces and tabs included, in table units.
    @inlinable
    static func advanceSum<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> Double {
        var sum = 0.0
        for byte in bytes {
            sum += byte == 0x20 ? TemplateCell.spaceAdvance : byte == 0x09 ? 4 * TemplateCell.spaceAdvance : TemplateCell.advance(byte)
        }
        return sum
    }

    /// The line width, in the text table's units, that lines are counted at for a label `width`
    /// points wide (at least 1 pt): the width divided by the font scale, taken to be on a
    /// multiple of half a unit when within 1e-7 of one. Every advance is a multiple of half a
    /// unit, so lines break only where the limit crosses one; a solver's width carries round-off
    /// (and `295 * 0.88 / 0.88` is below 295), so a text that fits its label exactly, as a label
    /// hugging its intrinsic width does, would otherwise wrap or not by one ulp depending on the
    /// pivots that produced it.
    @inlinable
    public func wrapLimit(width: Double) -> Double {
        let limit = (width > 1 ? width : 1) / (fontScale > 0 ? fontScale : 1)
        let breakpoint = (limit * 2).rounded() / 2
        return abs(limit - breakpoint) <= 1e-7 ? breakpoint : limit
    }

    /// Lines at `width` (`wrapLimit`), capped at `maxLines` when it is not 0.
    @inlinable
    public func lines<Bytes: Sequence<UInt8>>(of bytes: Bytes, width: Double) -> Int {
        let limit = wrapLimit(width: width)
        let count = bytes.withContiguousStorageIfAvailable({ TemplateCell.lineCount(of: $0, limit: limit) })
            ?? TemplateCell.lineCount(of: bytes, limit: limit)
        return maxLines > 0 && count > maxLines ? maxLines : count
    }
}

/// The attributes of NSLayoutConstraint a template may use.
public enum LayoutAttribute: String, CaseIterable, Hashable, Sendable, Codable {
    case leading, trailing, top, bottom, width, height, centerX, centerY

    /// x: leading, trailing, centerX, width; y: top, bottom, centerY, height.
    public var isHorizontal: Bool {
        switch self {
        case .leading, .trailing, .centerX, .width: return true
        case .top, .bottom, .centerY, .height: return false
        }
    }

    /// width or height.
    public var isSize: Bool { self == .width || self == .height }
}

/// `view.attribute`; `view` -1 is the content view.
public struct TemplateAnchor: Hashable, Sendable, Codable {
    public var view: Int
    public var attribute: LayoutAttribute

    public static let contentView = -1

    public init(view: Int, attribute: LayoutAttribute) {
        self.view = view
        self.attribute = attribute
    }
}

/// `first REL multiplier * second + constant @priority`, or `first REL constant @priority`
/// when `second` is nil.
public struct TemplateConstraint: Hashable, Sendable, Codable {
    public enum Relation: String, Hashable, Sendable, Codable {
        case equal = "==", lessThanOrEqual = "<=", greaterThanOrEqual = ">="
    }

    public var first: TemplateAnchor
    public var relation: Relation
    public var second: TemplateAnchor?
    public var multiplier: Double
    public var constant: Double
    public var priority: Double

    public init(_ first: TemplateAnchor, _ relation: Relation, _ second: TemplateAnchor?, multiplier: Double = 1, constant: Double = 0, priority: Double = 1000) {
        self.first = first
        self.relation = relation
        self.second = second
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
    }
}
