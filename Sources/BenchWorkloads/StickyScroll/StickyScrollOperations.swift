extension StickyScrollWorkload {
    package enum Operation: String, WorkloadOperation {
        /// One bounds change: shouldInvalidate, invalidate, prepare, viewport query.
        case scrollStep = "scroll-step"

        package var timed: String {
            "one bounds change of the sticky-scroll trace, in order, wrapping at its end: `shouldInvalidate(forBoundsChange:)`, "
                + "the bounds-change invalidation, `prepare()` and the viewport query (`viewport-query`: the query alone); "
                + "a sample is a batch of consecutive steps, divided"
        }
        package var untimed: String { "the layout's first prepare, the answer buffer's first growth (warm-up)" }
    }
}
