import BenchStatistics
/// The scroll offsets of a user moving through a list with sticky headers, one per bounds change:
/// what the `sticky-scroll` workload replays.
///
/// Deterministic for a content height, viewport height, step count and seed. In order: a pull
/// past the top and its rubber band back (offsets below 0), then at eight places spread evenly
/// over the content (reached by a scrubber jump) a drag of 10–40 pt steps, up now and then, and a
/// fling that starts at 80–160 pt a step and decays by 5 % a step; then the end of the content
/// and a rubber band past it, a jump back to the top (a status-bar tap), and drags and flings
/// from the top until `steps` offsets are made. Drags and flings stop at the ends of the content;
/// only the rubber bands leave it, by up to 60 pt.
package struct StickyScrollTrace: Hashable, Sendable {
    package var offsets: [Double]

    package init(contentHeight: Double, viewportHeight: Double, steps: Int, seed: UInt64 = 10) {
        let maxOffset = Swift.max(0, contentHeight - viewportHeight)
        var rng = SplitMix64(seed: seed, stream: 7)
        var offsets: [Double] = []
        offsets.reserveCapacity(steps)
        var y = 0.0
        func emit(_ value: Double) {
            y = value
            if offsets.count < steps { offsets.append(value) }
        }
        func clamped(_ value: Double) -> Double { Swift.min(Swift.max(0, value), maxOffset) }
        func drag(_ count: Int) {
            for _ in 0..<count {
                let step = rng.nextDouble(in: 10, 40)
                emit(clamped(rng.nextInt(in: 0...5) == 0 ? y - step : y + step))
            }
        }
        func fling() {
            var velocity = rng.nextDouble(in: 80, 160)
            while velocity >= 10 {
                emit(clamped(y + velocity))
                velocity *= 0.95
            }
        }
        let rubberBand: [Double] = [12, 28, 44, 56, 60, 52, 38, 22, 8]

        // A pull past the top and back.
        for stretch in rubberBand { emit(-stretch) }
        emit(0)
        // Drags and flings at eight places over the content.
        for place in 0..<8 {
            emit(clamped(maxOffset * Double(place) / 8))
            drag(15)
            fling()
        }
        // The end, and a rubber band past it.
        drag(5)
        emit(maxOffset)
        for stretch in rubberBand { emit(maxOffset + stretch) }
        emit(maxOffset)
        // Back to the top, then scroll on from there.
        emit(0)
        while offsets.count < steps {
            drag(15)
            fling()
        }
        self.offsets = offsets
    }
}
