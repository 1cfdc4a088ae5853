import CustomLayouts
import LayoutBenchCLI

// The registration: the two layouts of this package, with the scenario keys each reads, under
// every generic workload they support. `custom-layout-bench` then has layout-bench's command line
// (run, list, dump, render, compare, export) with these kinds beside the built-in ones.
LayoutBenchCLI.main(layouts: [
    LayoutKind(
        name: "square-grid", about: "equal squares, `columns` per row (the README's SquareGrid)",
        keys: [.integer("columns", default: 4, in: 1...64)],
        // Its squares ignore the items' sizes, so preferred attributes change nothing (self-sizing).
        workloads: [.prepare, .query, .append, .edit, .stickyScroll, .reuseScroll, .selfSizing], bytesPerItem: 8
    ) { input in
        SquareGrid(columns: try input.integer("columns"), itemsPerSection: input.sections.map(\.count), bounds: input.bounds)
    },
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
        workloads: [.prepare, .query, .append, .edit, .stickyScroll, .reuseScroll, .selfSizing],
        strategies: [
            LayoutStrategy(
                name: "cht-waterfall", about: "the port as CHT ships it",
                reproduces: "CHTCollectionViewWaterfallLayout (full recompute in prepareLayout, linear layoutAttributesForElementsInRect)",
                bytesPerItem: 400),
            LayoutStrategy(
                name: "cht-waterfall-broken", about: "broken on purpose: its rect query drops the last element of each answer (the verification test)",
                reproduces: "a bug", bytesPerItem: 400),
            LayoutStrategy(
                name: "cht-waterfall-traps", about: "broken on purpose: prepare() traps, ending its process (the test of a crashing layout)",
                reproduces: "a crash", bytesPerItem: 400),
            LayoutStrategy(
                name: "cht-waterfall-traps-late",
                about: "broken on purpose: prepare() traps from the process's 30th prepare on, while sampling (the test of a crash among modes sampled together)",
                reproduces: "a crash", bytesPerItem: 400),
            LayoutStrategy(
                name: "cht-waterfall-loops",
                about: "broken on purpose: prepare() never returns (the test that a layout looping forever is stopped)",
                reproduces: "a hang", bytesPerItem: 400),
            LayoutStrategy(
                name: "cht-waterfall-drops-deletions",
                about: "broken on purpose: a batch's deletions are ignored (the test that a batch applied wrongly is caught)",
                reproduces: "a bug", bytesPerItem: 400),
            LayoutStrategy(
                name: "cht-waterfall-keeps-estimates",
                about: "broken on purpose: preferred attributes never invalidate it, so items keep their estimates (the test that self-sizing is checked)",
                reproduces: "a bug", bytesPerItem: 400),
        ],
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
        var layout = CHTWaterfallLayout(
            columnCount: try input.integer("columnCount"),
            minimumColumnSpacing: try input.number("minimumColumnSpacing"),
            minimumInteritemSpacing: try input.number("minimumInteritemSpacing"),
            sectionInset: EdgeInsets(
                top: try input.number("sectionInsetTop"), left: try input.number("sectionInsetLeft"),
                bottom: try input.number("sectionInsetBottom"), right: try input.number("sectionInsetRight")),
            headerHeight: try input.number("headerHeight"), footerHeight: try input.number("footerHeight"),
            sections: input.sections, bounds: input.bounds)
        layout.dropsLastElement = input.strategy == "cht-waterfall-broken"
        layout.trapsInPrepare = input.strategy == "cht-waterfall-traps"
        layout.loopsInPrepare = input.strategy == "cht-waterfall-loops"
        layout.trapsAfterPrepares = input.strategy == "cht-waterfall-traps-late" ? 30 : nil
        layout.ignoresDeletions = input.strategy == "cht-waterfall-drops-deletions"
        if input.strategy == "cht-waterfall-keeps-estimates" { return KeepsEstimates(base: layout) }
        return layout
    },
])
