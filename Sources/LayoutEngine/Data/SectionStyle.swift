/// How a flow row distributes its free space along the line (CSS `justify-content`).
public enum Justify: String, Hashable, Sendable, Codable, CaseIterable {
    case start
    case center
    case end
    case spaceBetween = "space-between"
    case spaceAround = "space-around"
    case spaceEvenly = "space-evenly"
}

/// Where an item sits inside its flow row when the row is taller than the item (CSS `align-items`).
public enum Align: String, Hashable, Sendable, Codable, CaseIterable {
    case start
    case center
    case end
}

/// The order in which a waterfall assigns items to columns (CHTCollectionViewWaterfallLayout's
/// `ItemRenderDirection`).
public enum RenderDirection: String, Hashable, Sendable, Codable, CaseIterable {
    /// Each item goes to the shortest column; ties go to the leftmost column.
    case shortestFirst = "shortest-first"
    /// Item i goes to column i mod columns.
    case leftToRight = "left-to-right"
    /// Item i goes to column (columns - 1 - i mod columns).
    case rightToLeft = "right-to-left"
}

/// Which column a `shortest-first` waterfall gives an item when several are (nearly) equally
/// short: the placement rule (docs/engine-semantics.md §4, "Placement rules"). The fixed render
/// directions ignore it.
public enum WaterfallPlacementRule: Hashable, Sendable, Codable {
    /// The smallest bottom, ties to the leftmost column (CHTCollectionViewWaterfallLayout,
    /// Flutter's `SliverMasonryGrid`, Compose's staggered grids). The default.
    case leftmost
    /// The smallest bottom, ties to the column whose last item has the smaller index; an empty
    /// column counts as index -1 and a full-width item as the last item of every column, and
    /// what still ties goes to the leftmost (TanStack Virtual's lanes).
    case lastIndex
    /// CSS `display: grid-lanes` (css-grid-3): each column's running position (where its next
    /// item would start); the columns within `tolerance` of the smallest are candidates, and the
    /// first candidate at or after the auto-placement cursor (the line after the previous item)
    /// is taken, else the first candidate.
    case gridLanes(tolerance: Double)

    /// `flow-tolerance: normal`, 1em, at the default font size of 16 CSS px (1 px = 1 pt here).
    public static let defaultTolerance = 16.0

    /// The scenario-file name of the rule.
    public var name: String {
        switch self {
        case .leftmost: return "leftmost"
        case .lastIndex: return "last-index"
        case .gridLanes: return "grid-lanes"
        }
    }

    /// The rules' names, in order.
    public static let names = ["leftmost", "last-index", "grid-lanes"]

    /// The tolerance of `grid-lanes` (0 for the other rules).
    public var tolerance: Double {
        if case .gridLanes(let tolerance) = self { return tolerance }
        return 0
    }
}

/// Parameters of a waterfall (masonry) section.
public struct WaterfallStyle: Hashable, Sendable, Codable {
    public var columns: Int
    /// One positive weight per column; column widths are in proportion. `nil` means equal widths.
    public var weights: [Double]?
    public var direction: RenderDirection
    /// How `shortest-first` breaks ties (ignored by the fixed directions).
    public var placement: WaterfallPlacementRule

    public init(
        columns: Int, weights: [Double]? = nil, direction: RenderDirection = .shortestFirst,
        placement: WaterfallPlacementRule = .leftmost
    ) {
        self.columns = columns
        self.weights = weights
        self.direction = direction
        self.placement = placement
    }
}

/// The layout algorithm of one section's items.
public enum SectionKind: Hashable, Sendable, Codable {
    /// Full-width items stacked top to bottom (UITableView).
    case list
    /// Items in rows that wrap at the region width, CSS flexbox style (HDYogaFlowLayout).
    case flow(justify: Justify, align: Align)
    /// Items in columns, each to a column chosen by the render direction (CHT, HDWaterFlowLayout).
    case waterfall(WaterfallStyle)

    /// The scenario-file name of the kind.
    public var name: String {
        switch self {
        case .list: return "list"
        case .flow: return "flow"
        case .waterfall: return "waterfall"
        }
    }
}

/// How a section header behaves while scrolling (docs/engine-semantics.md; HDCollectionView's `headerTopStopType`).
public enum HeaderPin: String, Hashable, Sendable, Codable, CaseIterable {
    /// Scrolls with its section.
    case none
    /// Sticks at the visible top until the end of its section's items pushes it out.
    case normal
    /// Sticks below the stacked headers of earlier sections and never leaves (a two-level list).
    case stacked
}

/// How a section footer behaves while scrolling: it cannot stack.
public enum FooterPin: String, Hashable, Sendable, Codable, CaseIterable {
    case none
    /// Sticks at the visible bottom while the top of its section's items is above it.
    case normal
}

/// Everything about one section except its items: the algorithm, spacing, insets, the
/// heights of its header and footer (0 means none) and how they pin.
public struct SectionStyle: Hashable, Sendable, Codable {
    public var kind: SectionKind
    public var insets: EdgeInsets
    /// Space between neighbouring items in a row (flow) or between columns (waterfall).
    public var itemSpacing: Double
    /// Space between consecutive items (list), rows (flow) or items of a column (waterfall).
    public var lineSpacing: Double
    public var headerHeight: Double
    public var footerHeight: Double
    /// Whether the section has a background decoration spanning the whole section.
    public var background: Bool
    /// How the header pins (no effect without a header).
    public var headerPin: HeaderPin
    /// How the footer pins (no effect without a footer).
    public var footerPin: FooterPin

    public init(
        kind: SectionKind = .list, insets: EdgeInsets = .zero, itemSpacing: Double = 0,
        lineSpacing: Double = 0, headerHeight: Double = 0, footerHeight: Double = 0,
        background: Bool = false, headerPin: HeaderPin = .none, footerPin: FooterPin = .none
    ) {
        self.kind = kind
        self.insets = insets
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.background = background
        self.headerPin = headerPin
        self.footerPin = footerPin
    }

    /// The same style with nothing pinned (the natural frames).
    public var unpinned: SectionStyle {
        var style = self
        style.headerPin = .none
        style.footerPin = .none
        return style
    }

    /// Checks every number against the content width. `field` prefixes the names in errors.
    public func validate(contentWidth: Double, field: String = "section") throws(LayoutError) {
        try LayoutError.checkSize(insets.top, "\(field).insets.top")
        try LayoutError.checkSize(insets.left, "\(field).insets.left")
        try LayoutError.checkSize(insets.bottom, "\(field).insets.bottom")
        try LayoutError.checkSize(insets.right, "\(field).insets.right")
        try LayoutError.checkSize(itemSpacing, "\(field).itemSpacing")
        try LayoutError.checkSize(lineSpacing, "\(field).lineSpacing")
        try LayoutError.checkSize(headerHeight, "\(field).header.height")
        try LayoutError.checkSize(footerHeight, "\(field).footer.height")
        guard contentWidth > insets.horizontal else {
            throw LayoutError(
                field: "\(field).insets",
                reason: .widthSmallerThanInsets(width: contentWidth, insets: insets.horizontal))
        }
        if case .waterfall(let waterfall) = kind {
            guard waterfall.columns >= 1 else {
                throw LayoutError(field: "\(field).columns", reason: .invalidCount(waterfall.columns))
            }
            if let weights = waterfall.weights {
                guard weights.count == waterfall.columns else {
                    throw LayoutError(
                        field: "\(field).weights",
                        reason: .other("expected one weight per column (\(waterfall.columns)), got \(weights.count)"))
                }
                for (column, weight) in weights.enumerated() where !(weight.isFinite && weight > 0) {
                    throw LayoutError(
                        field: "\(field).weights[\(column)]",
                        reason: .other("\(weight) is not a positive finite weight"))
                }
            }
            if case .gridLanes(let tolerance) = waterfall.placement {
                try LayoutError.checkSize(tolerance, "\(field).tolerance")
            }
            let gaps = Double(waterfall.columns - 1) * itemSpacing
            guard contentWidth - insets.horizontal > gaps else {
                throw LayoutError(
                    field: "\(field).itemSpacing",
                    reason: .other("\(waterfall.columns) columns with spacing \(itemSpacing) leave no width for items"))
            }
        }
    }
}
