import LayoutBenchCLI
import TagCloud

LayoutBenchCLI.main(layouts: [
    LayoutKind(name: "tag-cloud", about: "chips of their own widths, wrapped into rows", workloads: [.prepare, .query, .stickyScroll]) { input in
        TagCloud(sections: input.sections, bounds: input.bounds)
    },
])
