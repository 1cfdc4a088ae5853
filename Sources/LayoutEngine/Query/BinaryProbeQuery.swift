/// HDCollectionView's rect query (`HDBaseLayout layoutAttributesForElementsInRect:`), reproduced
/// faithfully — a heuristic, inexact by design; the harness reports its recall.
///
/// Sections that intersect the rect are found by binary search over the stacked sections. In
/// each, the section's elements in order (header, items, footer; HD keeps decorations apart) are
/// binary-searched for *any* element whose y range meets the rect, touching edges included. From
/// there it walks both ways while `isRectIntersectsRect` holds, and after the first miss probes
/// **40** more elements. Its test counts an element as a hit when it intersects, when one of its
/// y edges is within 1 pt of the rect's opposite edge (x is not looked at), or when it shares a
/// row with its neighbour and the neighbour is a hit. So it misses elements beyond the probe
/// window (rows of mixed heights, tall items) and adds elements that only come within 1 pt.
public struct BinaryProbeQuery: RectQueryIndex {
    /// HD's `HDContinueFindCount` inside `HDBaseLayout`.
    public static let probeCount = 40

    public init(frames: LayoutFrames) {}

    public func appendElements(in rect: Rect, framesAt frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        if rect.isEmpty { return }
        var s = frames.firstSection(endingBelow: rect.minY)
        while s < frames.pointee.sectionCount && frames.pointee.sectionTops[s] < rect.maxY {
            if frames.pointee.hasBackground[s] {
                let frame = frames.pointee.sectionFrame(s)
                if frame.intersects(rect) {
                    results.append(LayoutAttributes(id: .decoration(section: s), frame: frame, zIndex: -1))
                }
            }
            appendSectionElements(s, rect: rect, frames: frames, to: &results)
            s += 1
        }
    }

    /// The section's elements as HD's `cacheAtts`: header, items, footer. Keeps the section's top
    /// beside the pointer to the frames, not to load it again on every probe.
    private struct SectionElements {
        let frames: UnsafePointer<LayoutFrames>
        let section: Int
        let sectionTop: Double
        let hasHeader: Bool
        let itemStart: Int
        let itemCount: Int
        let count: Int

        init(frames: UnsafePointer<LayoutFrames>, section: Int) {
            self.frames = frames
            self.section = section
            sectionTop = frames.pointee.sectionTops[section]
            hasHeader = frames.pointee.headerHeights[section] > 0
            let range = frames.pointee.itemRange(inSection: section)
            itemStart = range.lowerBound
            itemCount = range.count
            count = (hasHeader ? 1 : 0) + itemCount + (frames.pointee.footerHeights[section] > 0 ? 1 : 0)
        }

        /// Always inlined, as it was when the section held its frames by value: the probes call it
        /// for most elements they look at.
        @inline(__always)
        func attributes(at position: Int) -> LayoutAttributes {
            let item = position - (hasHeader ? 1 : 0)
            if item < 0 {
                return LayoutAttributes(id: .header(section: section), frame: frames.pointee.headerFrame(section)!, zIndex: 1)
            }
            if item >= itemCount {
                return LayoutAttributes(id: .footer(section: section), frame: frames.pointee.footerFrame(section)!, zIndex: 1)
            }
            let i = itemStart + item
            let frame = Rect(
                x: frames.pointee.itemMinX[i], y: sectionTop + frames.pointee.itemMinY[i],
                width: frames.pointee.itemWidth[i], height: frames.pointee.itemHeight[i])
            return LayoutAttributes(id: .item(item, section: section), frame: frame)
        }
    }

    private func appendSectionElements(_ s: Int, rect: Rect, frames: UnsafePointer<LayoutFrames>, to results: inout [LayoutAttributes]) {
        let elements = SectionElements(frames: frames, section: s)
        guard let first = binarySearch(elements, rect: rect) else { return }
        results.append(elements.attributes(at: first))

        // Backwards.
        var i = first - 1
        while i >= 0 {
            let attributes = elements.attributes(at: i)
            let next = elements.attributes(at: i + 1)
            if !Self.isHit(attributes.frame, rect, neighbour: next.frame) {
                var remaining = Self.probeCount
                var j = i - 1
                while j >= 0 {
                    let probe = elements.attributes(at: j)
                    if Self.isHit(probe.frame, rect, neighbour: elements.attributes(at: j + 1).frame) {
                        results.append(probe)
                    }
                    remaining -= 1
                    if remaining <= 0 { break }
                    j -= 1
                }
                break
            }
            results.append(attributes)
            i -= 1
        }

        // Forwards.
        i = first + 1
        while i < elements.count {
            let attributes = elements.attributes(at: i)
            let previous = elements.attributes(at: i - 1)
            if !Self.isHit(attributes.frame, rect, neighbour: previous.frame) {
                var remaining = Self.probeCount
                var j = i + 1
                while j < elements.count {
                    let probe = elements.attributes(at: j)
                    if Self.isHit(probe.frame, rect, neighbour: elements.attributes(at: j - 1).frame) {
                        results.append(probe)
                    }
                    remaining -= 1
                    if remaining <= 0 { break }
                    j += 1
                }
                break
            }
            results.append(attributes)
            i += 1
        }
    }

    /// HD's `binarySearch:end:rect:inAtts:` — any element whose y range meets the rect, edges included.
    private func binarySearch(_ elements: SectionElements, rect: Rect) -> Int? {
        var start = 0, end = elements.count - 1
        while start <= end {
            let mid = (start + end) / 2
            let frame = elements.attributes(at: mid).frame
            if frame.minY > rect.maxY {
                if end == mid { end -= 1 } else { end = mid }
            } else if frame.maxY < rect.minY {
                if start == mid { start += 1 } else { start = mid }
            } else {
                return mid
            }
        }
        return nil
    }

    /// HD's `_isRectIntersectsRect:rect2:lastOrNextAttRect:`.
    static func isHit(_ frame: Rect, _ rect: Rect, neighbour: Rect?) -> Bool {
        let intersects = frame.intersects(rect)
        let withinOnePoint = abs(frame.minY - rect.maxY) < 1 || abs(rect.minY - frame.maxY) < 1
        var sameRowAsHit = false
        if let neighbour {
            let neighbourIsHit = isHit(neighbour, rect, neighbour: nil)
            let unionHeight = max(frame.maxY, neighbour.maxY) - min(frame.minY, neighbour.minY)
            sameRowAsHit = unionHeight < frame.height + neighbour.height && neighbourIsHit
        }
        return intersects || withinOnePoint || sameRowAsHit
    }

    public var allocatedBytes: Int { 0 }
}
