extension ColumnCheckpoints: InvariantChecking {
    /// The first broken invariant: the flat arrays hold whole checkpoints of `columns` entries,
    /// bottoms are finite, and along the section no column's bottom moves up (beyond rounding)
    /// and no occupied column becomes empty, up to `end` (items only add height below what is
    /// placed).
    func invariantViolation() -> String? {
        guard columns >= 0, end.bottoms.count == columns, end.occupied.count == columns else {
            return "\(columns) columns, an end state of \(end.bottoms.count)"
        }
        if columns == 0 { return occupied.isEmpty && bottoms.count == 0 ? nil : "a section without columns holds checkpoints" }
        guard bottoms.count == occupied.count, occupied.count % columns == 0 else {
            return "\(bottoms.count) bottoms and \(occupied.count) occupied flags for \(columns) columns"
        }
        var previous = count > 0 ? state(at: 0) : end
        for k in 0..<(count + 1) {
            let current = k < count ? state(at: k) : end
            for c in 0..<columns {
                guard current.bottoms[c].isFinite else { return "checkpoint \(k) column \(c) bottom \(current.bottoms[c])" }
                // Up to rounding: a bottom shifted by δ, (x + δ) − δ, may read back an ulp below x.
                let slack = 1e-9 * (1 + previous.bottoms[c].magnitude)
                guard current.bottoms[c] >= previous.bottoms[c] - slack, current.occupied[c] || !previous.occupied[c] else {
                    let name = k < count ? "checkpoint \(k)" : "the end state"
                    return "\(name) column \(c) is at \(current.bottoms[c]) (occupied \(current.occupied[c])) after \(previous.bottoms[c]) (occupied \(previous.occupied[c]))"
                }
            }
            previous = current
        }
        return nil
    }
}

extension IncrementalWaterfallUpdater: InvariantChecking {
    /// The frames' invariants, then each section's checkpoints': their own, and one checkpoint
    /// per `1 << intervalBits` items plus the first for a waterfall section.
    public func invariantViolation() -> String? {
        if let violation = frames.invariantViolation() { return violation }
        guard orderCheckpoints.count == checkpoints.count else { return "\(orderCheckpoints.count) order checkpoints for \(checkpoints.count) sections" }
        for (s, sectionCheckpoints) in checkpoints.enumerated() {
            if let violation = sectionCheckpoints.invariantViolation() { return "section \(s): \(violation)" }
            let expected = sectionCheckpoints.columns == 0 ? 0 : data.itemCount(inSection: s) >> ColumnCheckpoints.intervalBits + 1
            guard sectionCheckpoints.count == expected else {
                return "section \(s) has \(sectionCheckpoints.count) checkpoints for \(data.itemCount(inSection: s)) items, expected \(expected)"
            }
            // The order state: as many checkpoints, and an end state, for a rule that keeps one.
            let order = orderCheckpoints[s]
            let keepsOrder = sectionCheckpoints.columns > 0 && styleRules[s % styles.count].keepsOrder
            let stride = keepsOrder ? sectionCheckpoints.columns + 1 : 0
            guard order.order.count == sectionCheckpoints.count * stride, order.end.count == stride else {
                return "section \(s) has \(order.order.count) order entries and an end order of \(order.end.count) for \(sectionCheckpoints.count) checkpoints"
            }
        }
        return nil
    }
}
