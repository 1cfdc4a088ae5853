import CustomLayouts
import LayoutBenchCLI

/// The registrations of this package's layouts: the scenario keys each reads, the generic
/// workloads it supports, its strategies. In a library of their own (not in the executable's
/// main.swift) so that another package can register the same kinds: the repository's fixture of
/// broken-on-purpose layouts (Tests/Fixtures/BrokenLayouts) adds its strategies to `chtWaterfall`.
public enum CustomLayoutKinds {
    /// Every kind of the package, as `custom-layout-bench` registers them.
    public static var all: [LayoutKind] { [squareGrid, chtWaterfall()] }

    /// A strategy another package adds to a kind: its registration, and the layout it builds from
    /// the kind's correctly built one (a wrapper that changes what it must).
    public struct AddedStrategy: Sendable {
        public var strategy: LayoutStrategy
        public var make: @Sendable (CHTWaterfallLayout) -> any CollectionLayout

        public init(_ strategy: LayoutStrategy, make: @escaping @Sendable (CHTWaterfallLayout) -> any CollectionLayout) {
            self.strategy = strategy
            self.make = make
        }
    }

    /// The README's SquareGrid, `columns` per row.
    public static let squareGrid = LayoutKind(
        name: "square-grid", about: "equal squares, `columns` per row (the README's SquareGrid)",
        keys: [.integer("columns", default: 4, in: 1...64)],
        workloads: [.prepare, .query, .append, .edit, .stickyScroll, .reuseScroll, .resize, .selfSizing], bytesPerItem: 8
    ) { input in
        SquareGrid(columns: try input.integer("columns"), itemsPerSection: input.sections.map(\.count), bounds: input.bounds)
    }

    /// CHT's waterfall, with `more` strategies beside the port (none in this package).
    public static func chtWaterfall(adding more: [AddedStrategy] = []) -> LayoutKind {
        LayoutKind(
            name: "cht-waterfall",
            about: "CHTCollectionViewWaterfallLayout's algorithm: shortest column, full recompute, linear rect query",
            keys: [
                .integer("columnCount", default: 2, in: 1...64),
                .number("minimumColumnSpacing", default: 10, in: 0...1000),
                .number("minimumInteritemSpacing", default: 10, in: 0...1000),
                .number("sectionInsetTop", default: 0, in: 0...1000),
                .number("sectionInsetLeft", default: 0, in: 0...1000),
                .number("sectionInsetBottom", default: 0, in: 0...1000),
                .number("sectionInsetRight", default: 0, in: 0...1000),
                .number("headerHeight", default: 0, in: 0...10000),
                .number("footerHeight", default: 0, in: 0...10000),
            ],
            // It applies batches of updates and preferred sizes to its sections, so it runs the batch
            // workloads and layout-self-sizing too.
            workloads: [.prepare, .query, .append, .edit, .stickyScroll, .reuseScroll, .resize, .selfSizing],
            strategies: [
                LayoutStrategy(
                    name: "cht-waterfall", about: "the port as CHT ships it",
                    reproduces: "CHTCollectionViewWaterfallLayout (full recompute in prepareLayout, linear layoutAttributesForElementsInRect)",
                    bytesPerItem: 400),
            ] + more.map(\.strategy),
            // The built-in waterfall places items by the same rules (docs/engine-semantics.md §4).
            sameGeometryAs: .builtIn("waterfall") { input in
                [
                    "columns": .integer(try input.integer("columnCount")),
                    "itemSpacing": .number(try input.number("minimumColumnSpacing")),
                    "lineSpacing": .number(try input.number("minimumInteritemSpacing")),
                    "insets.top": .number(try input.number("sectionInsetTop")),
                    "insets.left": .number(try input.number("sectionInsetLeft")),
                    "insets.bottom": .number(try input.number("sectionInsetBottom")),
                    "insets.right": .number(try input.number("sectionInsetRight")),
                    "header.height": .number(try input.number("headerHeight")),
                    "footer.height": .number(try input.number("footerHeight")),
                ]
            }
        ) { input in
            let layout = CHTWaterfallLayout(
                columnCount: try input.integer("columnCount"),
                minimumColumnSpacing: try input.number("minimumColumnSpacing"),
                minimumInteritemSpacing: try input.number("minimumInteritemSpacing"),
                sectionInset: EdgeInsets(
                    top: try input.number("sectionInsetTop"), left: try input.number("sectionInsetLeft"),
                    bottom: try input.number("sectionInsetBottom"), right: try input.number("sectionInsetRight")),
                headerHeight: try input.number("headerHeight"), footerHeight: try input.number("footerHeight"),
                sections: input.sections, bounds: input.bounds)
            return more.first { $0.strategy.name == input.strategy }?.make(layout) ?? layout
        }
    }
}
