/// The exact rect query that moves the previous frame's answer by the scroll delta.
///
/// While scrolling, consecutive queries are the same rect moved by a few points: a few elements
/// leave at one edge and a few enter at the other. `CoherentQuery` keeps the last rect, its answer
/// and, per section, where the walk of `binary` started and stopped. For a rect with the same x
/// range that shares sections with the last one, it drops the elements that no longer intersect
/// and adds those that now do, found by galloping from the old start and stop positions: O(k) to
/// filter the kept answer plus O(log Δ + entering elements) per section, where `binary` searches
/// and writes every element again. A jump (no section in common) or a new x range walks the
/// sections afresh, as `binary` does.
///
/// The answer holds exactly the elements `binary` returns (the same set: docs/engine-semantics.md compares query
/// answers as sets), in an order of its own. Elements are tested against the rect with the same
/// arithmetic as `binary`, so an element that touches the rect's edge is decided the same way.
///
/// The index keeps state between queries, so one instance must not be queried from two threads
/// at once; the layout that owns it queries it from one.
public final class CoherentQuery: RectQueryIndex, @unchecked Sendable {
    /// All the state, in one value that the index owns through a pointer: a query changes it
    /// without the runtime's exclusivity check on a class property (swift_beginAccess), which
    /// cost more than a scroll step that moves nothing. One query at a time, as stated above.
    @usableFromInline let walk: UnsafeMutablePointer<CoherentWalk>

    public init(frames: LayoutFrames) {
        walk = .allocate(capacity: 1)
        walk.initialize(to: CoherentWalk(frames: frames))
    }

    deinit {
        walk.pointee.deallocate()
        walk.deinitialize(count: 1)
        walk.deallocate()
    }

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        walk.pointee.query(rect, frames: frames, into: &results)
    }

    public var allocatedBytes: Int { walk.pointee.allocatedBytes }
}

/// The state of `CoherentQuery` and its moves.
@usableFromInline struct CoherentWalk {
    /// Prefix maxima, suffix minima and section orders: the structure `binary` walks.
    @usableFromInline let search: BinaryQuery
    /// The elements of the last rect.
    @usableFromInline var answer = AnswerBuffer(capacity: 256)
    /// The last rect (`hasAnswer` false before the first query).
    @usableFromInline var last = Rect(x: 0, y: 0, width: 0, height: 0)
    @usableFromInline var hasAnswer = false
    /// The sections the last walk visited, and per section the positions it visited: from the
    /// first to the one at which it stopped (valid for the sections in `lastSections`). Storage
    /// of its own, like `answer`: a move writes the walks of the sections it meets, and an
    /// `Array` would check its uniqueness, in calls to the runtime, on every write.
    @usableFromInline var lastSections: Range<Int> = 0..<0
    @usableFromInline let walks: UnsafeMutableBufferPointer<Range<Int>>
    /// The window in which `answer` stays exact for a rect with `last`'s x range: its top in
    /// `lowestTop ... highestTop` and its bottom in `lowestBottom ... highestBottom` (empty when
    /// unknown). Such a rect needs neither a search nor a move.
    @usableFromInline var lowestTop = Double.infinity, highestTop = -Double.infinity
    @usableFromInline var lowestBottom = Double.infinity, highestBottom = -Double.infinity
    /// The lowest maxY and the highest minY of the elements in `answer`: the window's inner
    /// bounds. Kept up to date as elements enter and while the move's filter passes over the
    /// kept ones, so that no pass over the answer is needed to find them.
    @usableFromInline var answerLowestMaxY = Double.infinity, answerHighestMinY = -Double.infinity
    /// The nearest edges of what `answer` leaves out, for the window's outer bounds: the highest
    /// maxY of the elements that could enter from above and the lowest minY of those that could
    /// enter from below (see `setWindow`). Each section adds its own as the query visits it.
    @usableFromInline var highestMaxYAbove = -Double.infinity, lowestMinYBelow = Double.infinity
    /// A margin larger than any rounding of an element's absolute edges, so the window errs inward.
    @usableFromInline let margin: Double


    // MARK: Moving the answer

    /// Updates `answer` from `last` to `rect`, which has the same x range and shares a section.
    @usableFromInline mutating func move(to rect: Rect, sections: Range<Int>, frames: UnsafePointer<LayoutFrames>) {
        // Keep what still intersects, noting the extremes of what is kept. A leaving element
        // gives its place to the last one (the answer's order is its own), so only the few that
        // leave move, not every element after them. Every kept element met `last`, which has
        // `rect`'s x range: its x range overlaps and its sides are positive, so of the test
        // `binary` applies (`Rect.intersects`) only the y half can fail.
        let top = rect.minY, bottom = rect.maxY
        var lowestMaxY = Double.infinity, highestMinY = -Double.infinity
        let elements = answer.base
        var count = answer.count, i = 0
        while i < count {
            let minY = elements[i].frame.minY, maxY = elements[i].frame.maxY
            if minY < bottom && top < maxY {
                lowestMaxY = Swift.min(lowestMaxY, maxY)
                highestMinY = Swift.max(highestMinY, minY)
                i += 1
            } else {
                count -= 1
                elements[i] = elements[count]
            }
        }
        answer.count = count
        answerLowestMaxY = lowestMaxY
        answerHighestMinY = highestMinY
        let direction: Direction = rect.minY >= last.minY && rect.maxY >= last.maxY ? .down
            : rect.minY <= last.minY && rect.maxY <= last.maxY ? .up : .both
        for s in sections {
            if !lastSections.contains(s) {
                walkAfresh(section: s, rect: rect, frames: frames)
                continue
            }
            appendSupplementary(section: s, rect: rect, unless: last, frames: frames)
            moveItems(section: s, to: rect, direction: direction, frames: frames)
        }
    }

    /// Adds the items of section `s` that intersect `rect` but not `last`, and moves the walk's
    /// start and stop to where `binary`'s walk for `rect` would have them.
    @usableFromInline mutating func moveItems(section s: Int, to rect: Rect, direction: Direction, frames: UnsafePointer<LayoutFrames>) {
        let range = frames.pointee.itemRange(inSection: s)
        if range.isEmpty { return }
        let sectionTop = frames.pointee.sectionTops[s]
        let window = LocalWindow(rect, sectionTop: sectionTop)
        let oldStart = walks[s].lowerBound, oldStop = walks[s].upperBound
        let start = firstPosition(in: range, passing: window.top, from: oldStart)
        let stop = Swift.max(start, firstStop(in: range, section: s, below: window.bottom, from: oldStop, frames: frames))
        walks[s] = start..<stop
        noteLeftOut(walk: start..<stop, in: range, section: s, sectionTop: sectionTop, rect: rect, frames: frames)

        // Items outside the old walk never intersected `last`: test each against `rect` alone.
        let sharedStart = Swift.max(start, oldStart), sharedStop = Swift.min(stop, oldStop)
        if sharedStart >= sharedStop {
            appendIntersecting(start..<stop, section: s, rect: rect, unless: nil, frames: frames)
            return
        }
        appendIntersecting(start..<sharedStart, section: s, rect: rect, unless: nil, frames: frames)
        appendIntersecting(sharedStop..<stop, section: s, rect: rect, unless: nil, frames: frames)

        // Items inside both walks that missed `last` but meet `rect`. In a section sorted by minY,
        // a downward move can only add items that started at or below the old bottom: a run at the
        // end of the shared range (minY is sorted). When the items are also disjoint, maxY is
        // sorted too, and an upward move can only add items that ended at or above the old top: a
        // run at its start. Otherwise every shared item is tested.
        let order = search.orders[s]
        if order != .unsorted && direction == .down {
            var begin = sharedStop
            while begin > sharedStart && sectionTop + frames.pointee.itemMinY[begin - 1] >= last.maxY { begin -= 1 }
            appendIntersecting(begin..<sharedStop, section: s, rect: rect, unless: last, frames: frames)
        } else if order == .disjoint && direction == .up {
            var end = sharedStart
            while end < sharedStop && sectionTop + frames.pointee.itemMinY[end] + frames.pointee.itemHeight[end] <= last.minY { end += 1 }
            appendIntersecting(sharedStart..<end, section: s, rect: rect, unless: last, frames: frames)
        } else if order == .sorted && direction == .up {
            // An upward move adds items that ended at or above the old top; such an item starts at
            // or above it too, and in minY order those items are a run at the start.
            var end = sharedStart
            while end < sharedStop && sectionTop + frames.pointee.itemMinY[end] <= last.minY { end += 1 }
            appendIntersecting(sharedStart..<end, section: s, rect: rect, unless: last, frames: frames)
        } else {
            appendIntersecting(sharedStart..<sharedStop, section: s, rect: rect, unless: last, frames: frames)
        }
    }

    /// Appends the decoration, header and footer of section `s` that intersect `rect` and, when
    /// `previous` is given, did not intersect it, with the attributes `appendSupplementary` gives
    /// them; those that miss `rect` go to the window's outer bounds.
    @inline(__always)
    @usableFromInline mutating func appendSupplementary(
        section s: Int, rect: Rect, unless previous: Rect?, frames: UnsafePointer<LayoutFrames>
    ) {
        let top = frames.pointee.sectionTops[s], bottom = frames.pointee.sectionTops[s + 1], width = frames.pointee.contentWidth
        @inline(__always) func enter(_ id: ElementID, _ frame: Rect, zIndex: Int) {
            if !frame.intersects(rect) {
                noteLeftOut(frame, rect: rect)
            } else if !(previous.map { frame.intersects($0) } ?? false) {
                keep(LayoutAttributes(id: id, frame: frame, zIndex: zIndex))
            }
        }
        if frames.pointee.hasBackground[s] {
            enter(.decoration(section: s), Rect(x: 0, y: top, width: width, height: bottom - top), zIndex: -1)
        }
        let headerHeight = frames.pointee.headerHeights[s]
        if headerHeight > 0 { enter(.header(section: s), Rect(x: 0, y: top, width: width, height: headerHeight), zIndex: 1) }
        let footerHeight = frames.pointee.footerHeights[s]
        if footerHeight > 0 {
            enter(.footer(section: s), Rect(x: 0, y: bottom - footerHeight, width: width, height: footerHeight), zIndex: 1)
        }
    }

    /// How the rect's edges moved: both down, both up, or apart.
    @usableFromInline enum Direction { case down, up, both }

    // MARK: Walking

    /// `binary`'s walk of section `s` for `rect`, appending to `answer`, with a fresh search.
    @usableFromInline mutating func walkAfresh(section s: Int, rect: Rect, frames: UnsafePointer<LayoutFrames>) {
        appendSupplementary(section: s, rect: rect, unless: nil, frames: frames)
        let range = frames.pointee.itemRange(inSection: s)
        let window = LocalWindow(rect, sectionTop: frames.pointee.sectionTops[s])
        let start = search.searchMaxY.withUnsafeBufferPointer { keys in
            var low = range.lowerBound, high = range.upperBound
            while low < high {
                let mid = (low &+ high) &>> 1
                if keys[mid] > window.top { high = mid } else { low = mid &+ 1 }
            }
            return low
        }
        // Walks and tests in one pass, stopping where `binary`'s walk stops.
        let sectionTop = frames.pointee.sectionTops[s], first = range.lowerBound
        let unsorted = search.orders[s] == .unsorted
        var i = start
        while i < range.upperBound {
            let localMinY = frames.pointee.itemMinY[i]
            if unsorted ? search.suffixMinY[i] >= window.bottom : localMinY >= window.bottom { break }
            appendItem(
                i, localMinY: localMinY, section: s, first: first, sectionTop: sectionTop, rect: rect, unless: nil,
                frames: frames)
            i += 1
        }
        walks[s] = start..<i
        if !range.isEmpty {
            noteLeftOut(walk: start..<i, in: range, section: s, sectionTop: sectionTop, rect: rect, frames: frames)
        }
    }

    /// Appends the items of `positions` (global indexes in section `s`) that intersect `rect` and,
    /// when `previous` is given, did not intersect it.
    @inline(__always)
    @usableFromInline mutating func appendIntersecting(
        _ positions: Range<Int>, section s: Int, rect: Rect, unless previous: Rect?, frames: UnsafePointer<LayoutFrames>
    ) {
        if positions.isEmpty { return }
        let sectionTop = frames.pointee.sectionTops[s], first = frames.pointee.sectionItemStarts[s]
        for i in positions {
            appendItem(
                i, localMinY: frames.pointee.itemMinY[i], section: s, first: first, sectionTop: sectionTop, rect: rect,
                unless: previous, frames: frames)
        }
    }

    /// Appends item `i` (global index; `first` is its section's first, `localMinY` its top in the
    /// section) if it intersects `rect` and, when `previous` is given, did not intersect it. The
    /// frame is the one `binary` builds, tested with the same arithmetic.
    @inline(__always)
    @usableFromInline mutating func appendItem(
        _ i: Int, localMinY: Double, section s: Int, first: Int, sectionTop: Double, rect: Rect, unless previous: Rect?,
        frames: UnsafePointer<LayoutFrames>
    ) {
        let minX = frames.pointee.itemMinX[i], minY = sectionTop + localMinY
        let width = frames.pointee.itemWidth[i], height = frames.pointee.itemHeight[i]
        guard Rect.intersects(
            minX: minX, minY: minY, maxX: minX + width, maxY: minY + height,
            withMinX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
        else { return }
        if let previous, Rect.intersects(
            minX: minX, minY: minY, maxX: minX + width, maxY: minY + height,
            withMinX: previous.minX, minY: previous.minY, maxX: previous.maxX, maxY: previous.maxY)
        { return }
        keep(LayoutAttributes(
            id: .item(i - first, section: s), frame: Rect(x: minX, y: minY, width: width, height: height)))
    }

    /// Adds an element to `answer`, and its edges to the answer's extremes.
    @inline(__always)
    @usableFromInline mutating func keep(_ element: LayoutAttributes) {
        answer.append(element)
        noteExtremes(of: element.frame)
    }

    @inline(__always)
    @usableFromInline mutating func noteExtremes(of frame: Rect) {
        answerLowestMaxY = Swift.min(answerLowestMaxY, frame.maxY)
        answerHighestMinY = Swift.max(answerHighestMinY, frame.minY)
    }

    // MARK: Galloping searches

    /// The first position in `range` whose prefix maximum of maxY passes `localTop` (where
    /// `binary`'s walk starts), galloping from `hint`: O(log distance).
    @inline(__always)
    @usableFromInline func firstPosition(in range: Range<Int>, passing localTop: Double, from hint: Int) -> Int {
        search.searchMaxY.withUnsafeBufferPointer { keys in
            gallop(in: range, from: hint) { keys[$0] > localTop }
        }
    }

    /// The first position in `range` at which `binary`'s walk stops for `localBottom` (minY, or
    /// the suffix minimum of minY in an unsorted section, at or below it), galloping from `hint`.
    @inline(__always)
    @usableFromInline func firstStop(
        in range: Range<Int>, section s: Int, below localBottom: Double, from hint: Int, frames: UnsafePointer<LayoutFrames>
    ) -> Int {
        if search.orders[s] == .unsorted {
            return search.suffixMinY.withUnsafeBufferPointer { suffixMinY in
                gallop(in: range, from: hint) { suffixMinY[$0] >= localBottom }
            }
        }
        return gallop(in: range, from: hint) { frames.pointee.itemMinY[$0] >= localBottom }
    }

    @usableFromInline init(frames: LayoutFrames) {
        search = BinaryQuery(frames: frames)
        walks = .allocate(capacity: frames.sectionCount)
        walks.initialize(repeating: 0..<0)
        margin = 1e-9 * (1 + abs(frames.contentHeight))
    }

    /// The elements of `rect` appended to `results`; `last` and the walks move to `rect`.
    @usableFromInline mutating func query(_ rect: Rect, frames: UnsafePointer<LayoutFrames>, into results: inout [LayoutAttributes]) {
        // A rect whose edges enclose no area (a height of 1e-320 at y = 4 has maxY == minY)
        // intersects nothing, by the edge test of `Rect.intersects`, though it is not `isEmpty`.
        if rect.isEmpty || !(rect.minX < rect.maxX && rect.minY < rect.maxY) { return }
        if rect.minX == last.minX && rect.maxX == last.maxX && rect.minY >= lowestTop && rect.minY <= highestTop
            && rect.maxY >= lowestBottom && rect.maxY <= highestBottom
        {
            // Nothing enters or leaves: `last` and the walks stay where they are.
            results.append(contentsOf: answer.elements)
            return
        }
        let sections = frames.sectionRange(meetingMinY: rect.minY, maxY: rect.maxY)
        // The window's outer bounds start at the sections around those the rect meets; each of
        // these adds what it leaves out as it is walked or moved.
        highestMaxYAbove = sections.lowerBound > 0 ? frames.pointee.sectionTops[sections.lowerBound] : -.infinity
        lowestMinYBelow = sections.upperBound < frames.pointee.sectionCount ? frames.pointee.sectionTops[sections.upperBound] : .infinity
        // A rect that shares no y with the last one (a scrubber's jump) keeps none of its answer:
        // one search per section costs less than galloping the whole way from the old walk.
        if hasAnswer && rect.minX == last.minX && rect.maxX == last.maxX && sections.overlaps(lastSections)
            && rect.minY < last.maxY && last.minY < rect.maxY
        {
            move(to: rect, sections: sections, frames: frames)
        } else {
            answer.count = 0
            answerLowestMaxY = .infinity
            answerHighestMinY = -.infinity
            for s in sections { walkAfresh(section: s, rect: rect, frames: frames) }
        }
        last = rect
        lastSections = sections
        hasAnswer = true
        setWindow()
        results.append(contentsOf: answer.elements)
    }

    /// Sets the window of `answer` for `last`. Its inner bounds are the answer's lowest maxY and
    /// highest minY; its outer bounds the nearest edges of the elements that could enter, which
    /// the sections noted as the query visited them (`noteLeftOut`).
    @inline(__always)
    @usableFromInline mutating func setWindow() {
        lowestTop = highestMaxYAbove + margin
        highestTop = answerLowestMaxY - margin
        lowestBottom = answerHighestMinY + margin
        highestBottom = lowestMinYBelow - margin
    }

    /// Adds a supplementary element that misses `rect` to the window's outer bounds, unless it
    /// could never meet a rect of that x range.
    @inline(__always)
    @usableFromInline mutating func noteLeftOut(_ frame: Rect, rect: Rect) {
        if frame.isEmpty || frame.maxX <= rect.minX || frame.minX >= rect.maxX { return }
        if frame.maxY <= rect.minY {
            highestMaxYAbove = Swift.max(highestMaxYAbove, frame.maxY)
        } else {
            lowestMinYBelow = Swift.min(lowestMinYBelow, frame.minY)
        }
    }

    /// Adds to the window's outer bounds the items of section `s` (its items are `range`) that
    /// the walk over `walk` leaves out for `rect`: those before it (their prefix maximum of maxY)
    /// and those after it (the stopping item's minY, or the suffix minimum). Where the walk may
    /// hold items the rect left out at an edge (items skipped within `binary`'s slack, or any
    /// section whose items overlap), that edge of `rect` bounds the window, so that a move past
    /// it goes through `move(to:)`: above the top unless the items are disjoint and the first
    /// one ends below it; below the bottom where they are unsorted or the last one starts below it.
    @inline(__always)
    @usableFromInline mutating func noteLeftOut(
        walk: Range<Int>, in range: Range<Int>, section s: Int, sectionTop: Double, rect: Rect,
        frames: UnsafePointer<LayoutFrames>
    ) {
        let start = walk.lowerBound, stop = walk.upperBound, order = search.orders[s]
        if start > range.lowerBound {
            highestMaxYAbove = Swift.max(highestMaxYAbove, sectionTop + search.searchMaxY[start - 1])
        }
        if stop < range.upperBound {
            let laterMinY = order == .unsorted ? search.suffixMinY[stop] : frames.pointee.itemMinY[stop]
            lowestMinYBelow = Swift.min(lowestMinYBelow, sectionTop + laterMinY)
        }
        if start < stop {
            if order != .disjoint || sectionTop + frames.pointee.itemMinY[start] + frames.pointee.itemHeight[start] <= rect.minY {
                highestMaxYAbove = Swift.max(highestMaxYAbove, rect.minY)
            }
            if order == .unsorted || sectionTop + frames.pointee.itemMinY[stop - 1] >= rect.maxY {
                lowestMinYBelow = Swift.min(lowestMinYBelow, rect.maxY)
            }
        }
    }

    /// Frees the storage the walk owns (`answer` and `walks`).
    func deallocate() {
        answer.deallocate()
        walks.deallocate()
    }

    @usableFromInline var allocatedBytes: Int {
        search.allocatedBytes + walks.count * MemoryLayout<Range<Int>>.stride
            + answer.capacity * MemoryLayout<LayoutAttributes>.stride
    }
}

/// The first position in `range` where a monotone predicate (false … false true … true) holds, or
/// `range.upperBound`; found by galloping from `hint` in the direction the predicate says, then
/// bisecting the last step: O(log |answer − hint|).
@inline(__always)
func gallop(in range: Range<Int>, from hint: Int, _ holds: (Int) -> Bool) -> Int {
    let start = range.lowerBound, end = range.upperBound
    if start == end { return end }
    var probe = Swift.min(Swift.max(hint, start), end - 1)
    var low: Int, high: Int
    if holds(probe) {
        // The answer is at or before the probe.
        high = probe
        low = start
        var step = 1
        while high - step >= start {
            probe = high - step
            if holds(probe) { high = probe; step &*= 2 } else { low = probe + 1; break }
        }
    } else {
        // The answer is after the probe.
        low = probe + 1
        high = end
        var step = 1
        while low + step - 1 < end {
            probe = low + step - 1
            if holds(probe) { high = probe; break }
            low = probe + 1
            step &*= 2
        }
    }
    while low < high {
        let mid = (low &+ high) &>> 1
        if holds(mid) { high = mid } else { low = mid &+ 1 }
    }
    return low
}

/// A rect's top and bottom in a section's coordinates, widened by `binary`'s slack.
@usableFromInline struct LocalWindow {
    @usableFromInline var top: Double
    @usableFromInline var bottom: Double

    @inline(__always) @usableFromInline init(_ rect: Rect, sectionTop: Double) {
        let slack = 1e-9 * (1 + abs(sectionTop) + abs(rect.minY) + abs(rect.maxY))
        top = rect.minY - sectionTop - slack
        bottom = rect.maxY - sectionTop + slack
    }
}

/// The answer `CoherentWalk` keeps between queries: elements in storage it owns, grown by doubling
/// (a scroll whose answers fit allocates nothing) and freed by `deallocate()`.
///
/// Not an `Array`: an append there checks that the storage is uniquely referenced (a runtime call)
/// and trimming goes through `replaceSubrange`, which together cost more per frame than the
/// elements themselves. `LayoutAttributes` is a plain value, so elements are overwritten and
/// dropped without deinitialisation.
@usableFromInline struct AnswerBuffer {
    @usableFromInline private(set) var base: UnsafeMutablePointer<LayoutAttributes>
    @usableFromInline private(set) var capacity: Int
    /// The elements held: the first `count` of `base`. Lowering it drops the last ones.
    @usableFromInline var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// The elements, valid until the next change.
    @inlinable var elements: UnsafeBufferPointer<LayoutAttributes> { UnsafeBufferPointer(start: base, count: count) }

    @inlinable @inline(__always)
    mutating func append(_ element: LayoutAttributes) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @usableFromInline mutating func grow() {
        let larger = UnsafeMutablePointer<LayoutAttributes>.allocate(capacity: 2 * capacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    func deallocate() { base.deallocate() }
}
