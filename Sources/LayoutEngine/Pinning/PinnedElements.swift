/// The sticky headers and footers of a sectioned layout, and where they are at the current scroll
/// offset (docs/engine-semantics.md).
///
/// With the visible top T = offset + pinOffset and the visible bottom B = offset + viewport height:
/// - a `normal` header at natural y0 with height h, in a section whose items region ends at E:
///   `y = max(y0, min(T + stackedAbove(s), E - h))`, so a header taller than its section never moves
///   above its natural place and the end of its section pushes it out;
/// - a `stacked` header: `y = max(y0, T + stackedAbove(s))`; it never leaves;
/// - a `normal` footer: `y = min(y0, max(B - h, top of its items region))`.
///
/// `stackedAbove(s)` is the total height of the stacked headers of sections before s. docs/engine-semantics.md words
/// the normal header's T' as T plus the heights of the stacked headers pinned at that moment; the
/// two agree, because whenever they differ the normal header sits at its natural place or at the
/// end of its section either way (the tests check this against LayoutReference's pinning).
///
/// Two facts make a scroll step cheap. `y0(s) - stackedAbove(s)` never decreases with s, so the
/// headers that have reached the visible top are those of a prefix of the sections, and in that
/// prefix only the last section's normal header can be between its natural place and the end of
/// its section: every earlier one rests at the end of its section. Likewise only the footer of the
/// first section reaching below B can be between its items' top and its natural place: earlier
/// footers are natural, later ones rest at the top of their items region.
///
/// Stacking order: pinnable footers have zIndex 2 and pinnable headers 3 + section, so they draw
/// above items (0), decorations (-1) and headers and footers that do not pin (1), and of two
/// headers that overlap (a normal header sliding under a stacked one) the later section's draws on
/// top, as docs/engine-semantics.md asks. The zIndex of an element does not change while it scrolls.
public struct PinnedElements: Sendable {
    /// Per section: how its header pins (`.none` also when it has no header).
    public private(set) var headerPins: [HeaderPin] = []
    /// Per section: how its footer pins (`.none` also when it has no footer).
    public private(set) var footerPins: [FooterPin] = []
    /// `sectionCount + 1` prefix sums of the heights of stacked headers.
    public private(set) var stackedAbove: [Double] = [0]
    /// The sections with a stacked header, ascending.
    public private(set) var stackedSections: [Int] = []
    public private(set) var hasPinnableHeaders = false
    public private(set) var hasPinnableFooters = false

    /// T and B of the last `update`.
    public private(set) var visibleTop = 0.0
    public private(set) var visibleBottom = 0.0
    /// The last section whose header has reached the visible top (`y0 - stackedAbove < T`), or -1.
    /// Later sections' headers are at their natural place.
    public private(set) var topSection = -1
    private var topHeaderY = 0.0
    /// The first section whose bottom lies below B (`sectionCount` when none). Earlier sections'
    /// footers are natural; later ones rest at the top of their items region.
    public private(set) var bottomSection = 0
    private var bottomFooterY = 0.0
    /// Sections `0...scannedThrough` have their frames in the scanned arrays (modes scan, relayout).
    public private(set) var scannedThrough = -1
    private var scannedHeaderY: [Double] = []
    private var scannedFooterY: [Double] = []

    public init() {}

    /// Whether anything pins at all.
    public var isEmpty: Bool { !hasPinnableHeaders && !hasPinnableFooters }

    /// The zIndex of every pinnable footer.
    public static let footerZIndex = 2
    /// The zIndex of a pinnable header: later sections above earlier ones.
    public static func headerZIndex(section: Int) -> Int { 3 + section }

    // MARK: Configuration

    /// Reads the pin of every section from `styles` (cycling) after a layout pass. O(S); reuses
    /// the storage of earlier passes.
    public mutating func configure(frames: LayoutFrames, styles: [SectionStyle]) {
        let sectionCount = frames.sectionCount
        headerPins.removeAll(keepingCapacity: true)
        footerPins.removeAll(keepingCapacity: true)
        stackedAbove.removeAll(keepingCapacity: true)
        stackedSections.removeAll(keepingCapacity: true)
        hasPinnableHeaders = false
        hasPinnableFooters = false
        var stacked = 0.0
        stackedAbove.append(0)
        for s in 0..<sectionCount {
            let style = styles[s % styles.count]
            let headerPin = frames.headerHeights[s] > 0 ? style.headerPin : .none
            let footerPin = frames.footerHeights[s] > 0 ? style.footerPin : .none
            headerPins.append(headerPin)
            footerPins.append(footerPin)
            if headerPin != .none { hasPinnableHeaders = true }
            if footerPin != .none { hasPinnableFooters = true }
            if headerPin == .stacked {
                stackedSections.append(s)
                stacked += frames.headerHeights[s]
            }
            stackedAbove.append(stacked)
        }
        if scannedHeaderY.count != sectionCount {
            scannedHeaderY = [Double](repeating: 0, count: sectionCount)
            scannedFooterY = [Double](repeating: 0, count: sectionCount)
        }
        scannedThrough = -1
        topSection = -1
        bottomSection = sectionCount
    }

    // MARK: One scroll step

    /// Brings the pinned frames to the visible top `visibleTop` (offset + pinOffset) and bottom
    /// `visibleBottom`, with the work `mode` names. Allocates nothing.
    public mutating func update(mode: PinningMode, frames: LayoutFrames, visibleTop: Double, visibleBottom: Double) {
        self.visibleTop = visibleTop
        self.visibleBottom = visibleBottom
        switch mode {
        case .cached: locate(frames: frames)
        case .scan: scan(frames: frames, wholeLayout: false)
        case .relayout: scan(frames: frames, wholeLayout: true)
        }
    }

    /// O(log S): the sections under the visible top and bottom, and their header and footer. The
    /// searches gallop from the previous step's sections, so a small scroll costs O(1) probes and
    /// a jump O(log distance).
    private mutating func locate(frames: LayoutFrames) {
        scannedThrough = -1
        let sectionCount = frames.sectionCount
        let top = visibleTop, bottom = visibleBottom
        // The last section with sectionTops[s] - stackedAbove[s] < T (a non-decreasing key).
        let firstBelowTop = frames.sectionTops.withUnsafeBufferPointer { tops in
            stackedAbove.withUnsafeBufferPointer { stacked in
                Self.firstIndex(from: topSection + 1, count: sectionCount) { tops[$0] - stacked[$0] >= top }
            }
        }
        topSection = firstBelowTop - 1
        if topSection >= 0, headerPins[topSection] == .normal {
            topHeaderY = Self.normalHeaderY(section: topSection, frames: frames, stackedTop: top + stackedAbove[topSection])
        }
        bottomSection = frames.sectionTops.withUnsafeBufferPointer { tops in
            Self.firstIndex(from: bottomSection, count: sectionCount) { tops[$0 + 1] > bottom }
        }
        if bottomSection < sectionCount, footerPins[bottomSection] == .normal {
            bottomFooterY = Self.normalFooterY(section: bottomSection, frames: frames, visibleBottom: bottom)
        }
    }

    /// The first index in `0..<count` where `isAtOrAfter` holds (false then true along the
    /// indices), or `count`: galloping out from `hint`, then a binary search. O(log |answer - hint|).
    @inline(__always)
    static func firstIndex(from hint: Int, count: Int, _ isAtOrAfter: (Int) -> Bool) -> Int {
        func holds(_ i: Int) -> Bool { i >= count || isAtOrAfter(i) }
        let start = Swift.min(Swift.max(hint, 0), count)
        var low: Int, high: Int  // the answer lies in low...high; holds(high)
        var step = 1
        if holds(start) {
            high = start
            while true {
                let probe = start - step
                if probe < 0 { low = 0; break }
                if holds(probe) { high = probe; step <<= 1 } else { low = probe + 1; break }
            }
        } else {
            low = start + 1
            while true {
                let probe = start + step
                if probe >= count { high = count; break }
                if holds(probe) { high = probe; break }
                low = probe + 1
                step <<= 1
            }
        }
        while low < high {
            let mid = (low + high) >> 1
            if holds(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// O(sections scanned): HDHeaderStopHelper's walk from section 0, accumulating the height of
    /// the stacked headers met on the way. Stops after the last section that is visible or that the
    /// stacked headers reach, unless `wholeLayout`.
    private mutating func scan(frames: LayoutFrames, wholeLayout: Bool) {
        let sectionCount = frames.sectionCount
        let top = visibleTop, bottom = visibleBottom
        var stacked = 0.0
        var s = 0
        while s < sectionCount {
            let sectionTop = frames.sectionTops[s]
            if !wholeLayout, sectionTop >= bottom, sectionTop - stacked >= top { break }
            switch headerPins[s] {
            case .normal:
                scannedHeaderY[s] = Self.normalHeaderY(section: s, frames: frames, stackedTop: top + stacked)
            case .stacked:
                scannedHeaderY[s] = Swift.max(sectionTop, top + stacked)
                stacked += frames.headerHeights[s]
            case .none:
                break
            }
            if footerPins[s] == .normal {
                scannedFooterY[s] = Self.normalFooterY(section: s, frames: frames, visibleBottom: bottom)
            }
            s += 1
        }
        scannedThrough = s - 1
        // Beyond the scan, headers are natural and footers rest at their items' top.
        topSection = scannedThrough
        bottomSection = scannedThrough
    }

    @inline(__always)
    private static func normalHeaderY(section s: Int, frames: LayoutFrames, stackedTop: Double) -> Double {
        let y0 = frames.sectionTops[s]
        let pushedOut = y0 + frames.itemsRegionBottoms[s] - frames.headerHeights[s]
        return Swift.max(y0, Swift.min(stackedTop, pushedOut))
    }

    @inline(__always)
    private static func normalFooterY(section s: Int, frames: LayoutFrames, visibleBottom: Double) -> Double {
        let height = frames.footerHeights[s]
        let y0 = frames.sectionTops[s + 1] - height
        let itemsTop = frames.sectionTops[s] + frames.itemsRegionTops[s]
        return Swift.min(y0, Swift.max(visibleBottom - height, itemsTop))
    }

    // MARK: Frames
    //
    // The query path reads the frames through a pointer (`framesAt:`): `LayoutFrames` is ~180
    // bytes, and Swift copies a struct stored in the caller's `self` before handing it by value to
    // a function it does not inline (also when `borrowing`). The by-value functions are thin
    // wrappers for callers off the hot path.

    /// The current y of the header of section `s`, which must pin.
    public func headerY(section s: Int, frames: LayoutFrames) -> Double {
        withUnsafePointer(to: frames) { headerY(section: s, framesAt: $0) }
    }

    @inline(__always)
    func headerY(section s: Int, framesAt frames: UnsafePointer<LayoutFrames>) -> Double {
        if s <= scannedThrough { return scannedHeaderY[s] }
        let y0 = frames.pointee.sectionTops[s]
        if s > topSection { return y0 }
        if headerPins[s] == .stacked { return Swift.max(y0, visibleTop + stackedAbove[s]) }
        if s == topSection { return topHeaderY }
        return Swift.max(y0, y0 + frames.pointee.itemsRegionBottoms[s] - frames.pointee.headerHeights[s])
    }

    /// The current y of the footer of section `s`, which must pin.
    public func footerY(section s: Int, frames: LayoutFrames) -> Double {
        withUnsafePointer(to: frames) { footerY(section: s, framesAt: $0) }
    }

    @inline(__always)
    func footerY(section s: Int, framesAt frames: UnsafePointer<LayoutFrames>) -> Double {
        if s <= scannedThrough { return scannedFooterY[s] }
        if s < bottomSection { return frames.pointee.sectionTops[s + 1] - frames.pointee.footerHeights[s] }
        if s == bottomSection { return bottomFooterY }
        return frames.pointee.sectionTops[s] + frames.pointee.itemsRegionTops[s]
    }

    /// The attributes of the header of section `s` (which must pin) where it is now.
    public func headerAttributes(section s: Int, frames: LayoutFrames) -> LayoutAttributes {
        withUnsafePointer(to: frames) { headerAttributes(section: s, framesAt: $0) }
    }

    @inline(__always)
    func headerAttributes(section s: Int, framesAt frames: UnsafePointer<LayoutFrames>) -> LayoutAttributes {
        let y = headerY(section: s, framesAt: frames)
        let width = frames.pointee.contentWidth, height = frames.pointee.headerHeights[s]
        return LayoutAttributes(
            id: .header(section: s), frame: Rect(x: 0, y: y, width: width, height: height),
            zIndex: Self.headerZIndex(section: s), isPinned: y != frames.pointee.sectionTops[s])
    }

    /// The attributes of the footer of section `s` (which must pin) where it is now.
    public func footerAttributes(section s: Int, frames: LayoutFrames) -> LayoutAttributes {
        withUnsafePointer(to: frames) { footerAttributes(section: s, framesAt: $0) }
    }

    @inline(__always)
    func footerAttributes(section s: Int, framesAt frames: UnsafePointer<LayoutFrames>) -> LayoutAttributes {
        let y = footerY(section: s, framesAt: frames)
        let height = frames.pointee.footerHeights[s]
        return LayoutAttributes(
            id: .footer(section: s), frame: Rect(x: 0, y: y, width: frames.pointee.contentWidth, height: height),
            zIndex: Self.footerZIndex, isPinned: y != frames.pointee.sectionTops[s + 1] - height)
    }

    /// The current attributes of `id` when it is a header or footer that pins, else nil.
    public func attributes(of id: ElementID, frames: LayoutFrames) -> LayoutAttributes? {
        guard id.index == 0, id.section >= 0, id.section < headerPins.count else { return nil }
        switch id.kind {
        case .header where headerPins[id.section] != .none: return headerAttributes(section: id.section, frames: frames)
        case .footer where footerPins[id.section] != .none: return footerAttributes(section: id.section, frames: frames)
        default: return nil
        }
    }

    // MARK: Rect queries

    /// Turns the answer of a rect-query index (natural frames) into the answer with pinning: drops
    /// the natural frames of headers and footers that pin, then adds those whose current frame meets
    /// `rect`, including stacked headers of sections far above it. O(k + sections meeting the rect +
    /// log S); allocates nothing once `results` has the capacity.
    public func applyPinnedFrames(in rect: Rect, frames: LayoutFrames, to results: inout [LayoutAttributes]) {
        withUnsafePointer(to: frames) { applyPinnedFrames(in: rect, framesAt: $0, to: &results) }
    }

    /// `applyPinnedFrames(in:frames:to:)` reading the frames at `frames`, which must stay valid and
    /// unchanged during the call: what `SectionedLayout` calls with the address of its own frames,
    /// so that a query copies nothing.
    public func applyPinnedFrames(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        let kept = results.withUnsafeMutableBufferPointer { buffer in
            var kept = 0
            for read in buffer.indices {
                let id = buffer[read].id
                let pins: Bool
                switch id.kind {
                case .header: pins = headerPins[id.section] != .none
                case .footer: pins = footerPins[id.section] != .none
                case .item, .decoration: pins = false
                }
                if !pins {
                    if kept != read { buffer[kept] = buffer[read] }
                    kept += 1
                }
            }
            return kept
        }
        results.removeLast(results.count - kept)
        guard !rect.isEmpty else { return }

        // The sections meeting the rect (as `LayoutFrames.sectionRange`, with its slack), found by
        // galloping from the section under the visible top, where viewport queries start.
        let sectionCount = frames.pointee.sectionCount
        let slack = 1e-9 * (1 + frames.pointee.contentHeight)
        let minY = rect.minY - slack, maxY = rect.maxY + slack
        let first = frames.pointee.sectionTops.withUnsafeBufferPointer { tops in
            Self.firstIndex(from: topSection, count: sectionCount) { tops[$0 + 1] > minY }
        }
        var s = first
        while s < sectionCount, frames.pointee.sectionTops[s] < maxY {
            if headerPins[s] != .none {
                let attributes = headerAttributes(section: s, framesAt: frames)
                if attributes.frame.intersects(rect) { results.append(attributes) }
            }
            if footerPins[s] != .none {
                let attributes = footerAttributes(section: s, framesAt: frames)
                if attributes.frame.intersects(rect) { results.append(attributes) }
            }
            s += 1
        }
        let sections = first..<Swift.max(first, s)
        // Stacked headers of earlier sections, pinned down into the rect: their pinned frames
        // [T + stackedAbove(s), T + stackedAbove(s + 1)) follow each other, so binary search.
        guard !stackedSections.isEmpty, sections.lowerBound > 0 else { return }
        var low = 0, high = stackedSections.count
        while low < high {
            let mid = (low + high) >> 1
            if visibleTop + stackedAbove[stackedSections[mid] + 1] > rect.minY { high = mid } else { low = mid + 1 }
        }
        var k = low
        while k < stackedSections.count {
            let s = stackedSections[k]
            if s >= sections.lowerBound || visibleTop + stackedAbove[s] >= rect.maxY { break }
            let attributes = headerAttributes(section: s, framesAt: frames)
            if attributes.frame.intersects(rect) { results.append(attributes) }
            k += 1
        }
    }
}
