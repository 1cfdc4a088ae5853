// Built with the RealText trait only (Package.swift), which links HarfBuzz and ICU; without it
// TextEngine says why a label with a font cannot be measured.
#if RealText
import CHarfBuzz
import CLineBreak
import Foundation
import LayoutEngine

/// A label's text measured the way a text engine measures it (docs/text.md): the paragraph
/// shaped by HarfBuzz with the font (glyph advances in font units: kerning, ligatures), break
/// opportunities found by ICU's line break iterator (UAX #14), and lines filled greedily.
///
/// The rules, which `scripts/text_oracle.py` implements again on its own:
/// - The text is cut at ICU's break opportunities into segments; a segment's trailing spaces
///   (U+0020, U+0009) and line ends (U+000A, U+000D) hang: they take no width at the end of a line.
/// - A segment goes on the current line when the line's width with it (its own hanging part not
///   counted) is at most the width (+1e-6 pt); otherwise it starts a new line. A segment wider
///   than a whole line is split between glyph clusters (at least one cluster a line), and its
///   last part stays open for the next segments.
/// - A mandatory break (after a line feed) ends the line; a text that ends with one gets no
///   empty line after it. An empty text has no lines; any other text has at least one.
/// - A width in points is `units * size / unitsPerEm`, computed in that order; the reported width
///   is the widest line, or the label's width when `maxLines` truncates.
///
/// With `caching`, the analysis of a text (its shaped segments) is kept by (text, font) and
/// every layout by (analysis, width, maxLines), as text engines keep shaped runs and line
/// breaks; the cache is dropped whole when it passes `cacheBudget` bytes. Without it, every
/// call shapes and breaks again. `counters` tells where the time went.
public final class ShapedTextMeasurer: LabelTextMeasuring {
    /// What the measurer did since the last `resetCounters()`. Times are taken with the
    /// monotonic clock around shaping and around line breaking only when `timing` is on.
    public struct Counters: Hashable, Sendable {
        /// Texts shaped by HarfBuzz.
        public var shaped = 0
        /// Texts broken into segments by ICU.
        public var broken = 0
        /// Layouts computed by filling lines (every `layout` and `intrinsicWidth` not answered by
        /// the cache).
        public var filled = 0
        /// Analyses and layouts answered by the cache.
        public var analysisHits = 0
        public var layoutHits = 0
        public var shapingNanoseconds: UInt64 = 0
        /// ICU's iteration and the filling of lines.
        public var breakingNanoseconds: UInt64 = 0
    }

    public let caching: Bool
    public var timing = false
    public private(set) var counters = Counters()
    public let library: FontLibrary
    public static let widthTolerance = 1e-6
    /// The cache is dropped when its arrays pass this many bytes.
    public var cacheBudget = 64 << 20

    private struct Font {
        var face: LoadedFace
        var size: Double
        var key: LabelFont
    }
    private var fonts: [Font] = []
    private let buffer: OpaquePointer
    private let breaker: UnsafeMutableRawPointer

    // The analysis of one text, flat: per segment its width with and without its hanging part
    // (font units), whether a mandatory break ends it, and its visible clusters' advances.
    private var segFull: [Int] = []
    private var segVisible: [Int] = []
    private var segHard: [Bool] = []
    private var segClusterEnd: [Int32] = []
    private var clusterAdvance: [Int32] = []
    // Scratch of one analysis: per byte the units of the clusters before it, and whether a
    // cluster starts there.
    private var prefix: [Int] = []
    private var clusterStart: [Bool] = []

    // The cache: analyses in the same flat arrays, past the scratch (an analysis is
    // `segments[a] ..< segments[a + 1]`); texts in `cachedBytes`.
    private struct Entry {
        var bytesStart: Int
        var bytesCount: Int
        var font: Int32
        var segmentStart: Int
        var segmentCount: Int
        var clusterStart: Int
        var next: Int32
        var intrinsic: Double
    }
    private var entries: [Entry] = []
    private var buckets: [UInt64: Int32] = [:]
    private var cachedBytes: [UInt8] = []
    private var cacheSegFull: [Int] = [], cacheSegVisible: [Int] = [], cacheSegHard: [Bool] = [], cacheSegClusterEnd: [Int32] = []
    private var cacheClusters: [Int32] = []
    private struct LayoutKey: Hashable {
        var entry: Int32
        var maxLines: Int32
        var width: UInt64
    }
    private var layouts: [LayoutKey: LabelTextLayout] = [:]

    public init(caching: Bool, library: FontLibrary = .shared) throws(LabelTextError) {
        self.caching = caching
        self.library = library
        var status: Int32 = 0
        guard let breaker = lb_linebreak_open(&status) else {
            throw LabelTextError("ICU cannot make a line break iterator (ICU error \(status))")
        }
        self.breaker = breaker
        guard let buffer = hb_buffer_create(), hb_buffer_allocation_successful(buffer) != 0 else {
            lb_linebreak_close(breaker)
            throw LabelTextError("HarfBuzz cannot make a buffer")
        }
        self.buffer = buffer
    }

    deinit {
        hb_buffer_destroy(buffer)
        lb_linebreak_close(breaker)
    }

    public func resetCounters() { counters = Counters() }

    /// Drops every cached analysis and layout.
    public func clearCache() {
        entries.removeAll(keepingCapacity: true)
        buckets.removeAll(keepingCapacity: true)
        cachedBytes.removeAll(keepingCapacity: true)
        cacheSegFull.removeAll(keepingCapacity: true)
        cacheSegVisible.removeAll(keepingCapacity: true)
        cacheSegHard.removeAll(keepingCapacity: true)
        cacheSegClusterEnd.removeAll(keepingCapacity: true)
        cacheClusters.removeAll(keepingCapacity: true)
        layouts.removeAll(keepingCapacity: true)
    }

    public func resolve(_ font: LabelFont) throws(LabelTextError) -> Int {
        if let index = fonts.firstIndex(where: { $0.key == font }) { return index }
        let face = try library.check(font)
        fonts.append(Font(face: face, size: font.size, key: font))
        return fonts.count - 1
    }

    /// The font's own line height (FreeType's ascender - descender + line gap) at its size.
    public func lineHeight(font: Int) -> Double { fonts[font].face.lineHeight(size: fonts[font].size) }

    public func intrinsicWidth(of text: UnsafeBufferPointer<UInt8>, font: Int) -> Double {
        if text.isEmpty { return 0 }
        if caching {
            let entry = cachedEntry(text, font: font)
            return entries[entry].intrinsic
        }
        analyze(text, font: font)
        return fill(scratch: true, entry: -1, font: font, width: .infinity, maxLines: 0).width
    }

    public func layout(of text: UnsafeBufferPointer<UInt8>, font: Int, width: Double, maxLines: Int) -> LabelTextLayout {
        if text.isEmpty { return LabelTextLayout(width: 0, lines: 0) }
        if caching {
            let entry = cachedEntry(text, font: font)
            let key = LayoutKey(entry: Int32(entry), maxLines: Int32(clamping: maxLines), width: width.bitPattern)
            if let layout = layouts[key] {
                counters.layoutHits += 1
                return layout
            }
            let layout = fill(scratch: false, entry: entry, font: font, width: width, maxLines: maxLines)
            layouts[key] = layout
            return layout
        }
        analyze(text, font: font)
        return fill(scratch: true, entry: -1, font: font, width: width, maxLines: maxLines)
    }

    // MARK: Analysis: shaping and break opportunities

    /// Shapes `text` and cuts it at its break opportunities into the scratch analysis. Each
    /// part runs in a function of its own name (`layoutbench_text_shaping`,
    /// `layoutbench_text_breaking`), which `--instructions` reads from callgrind's profile.
    private func analyze(_ text: UnsafeBufferPointer<UInt8>, font: Int) {
        let start = timing ? Self.now() : 0
        layoutbenchTextShaping(self, text, font)
        let shaped = timing ? Self.now() : 0
        layoutbenchTextBreaking(self, text)
        if timing {
            let now = Self.now()
            counters.shapingNanoseconds += shaped - start
            counters.breakingNanoseconds += now - shaped
        }
    }

    /// HarfBuzz's shaping of `text` into `prefix` and `clusterStart`.
    func shapeBody(_ text: UnsafeBufferPointer<UInt8>, font: Int) {
        let n = text.count
        // Shaping: the paragraph as one run, left to right, script guessed, language fixed.
        hb_buffer_clear_contents(buffer)
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_set_language(buffer, language)
        hb_buffer_add_utf8(buffer, UnsafeRawPointer(text.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(n), 0, Int32(n))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(fonts[font].face.font, buffer, nil, 0)
        var glyphCount: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &glyphCount)!
        let positions = hb_buffer_get_glyph_positions(buffer, &glyphCount)!
        if prefix.count < n + 1 {
            prefix = Array(repeating: 0, count: n + 1)
            clusterStart = Array(repeating: false, count: n + 1)
        }
        // Per byte, the advance of the cluster starting there (in `prefix`, summed below).
        for i in 0...n {
            prefix[i] = 0
            clusterStart[i] = false
        }
        for g in 0..<Int(glyphCount) {
            let cluster = Int(infos[g].cluster)
            prefix[cluster] += Int(positions[g].x_advance)
            clusterStart[cluster] = true
        }
        var sum = 0
        for i in 0...n {
            let advance = prefix[i]
            prefix[i] = sum
            sum += advance
        }
        counters.shaped += 1
    }

    /// ICU's break opportunities of `text` into the scratch segments (after `shapeBody`).
    func breakBody(_ text: UnsafeBufferPointer<UInt8>) {
        let n = text.count
        // Break opportunities: segments between them.
        segFull.removeAll(keepingCapacity: true)
        segVisible.removeAll(keepingCapacity: true)
        segHard.removeAll(keepingCapacity: true)
        segClusterEnd.removeAll(keepingCapacity: true)
        clusterAdvance.removeAll(keepingCapacity: true)
        _ = lb_linebreak_set_text(breaker, text.baseAddress!, Int64(n))
        var segmentStart = 0
        var hard: Int32 = 0
        while true {
            var end = Int(lb_linebreak_next(breaker, &hard))
            if end < 0 || end > n { end = n }
            if end <= segmentStart { if end >= n { break } else { continue } }
            var visibleEnd = end
            while visibleEnd > segmentStart, Self.hangs(text[visibleEnd - 1]) { visibleEnd -= 1 }
            segFull.append(prefix[end] - prefix[segmentStart])
            segVisible.append(prefix[visibleEnd] - prefix[segmentStart])
            segHard.append(hard != 0)
            // The visible clusters, for splitting a segment wider than a line.
            var clusterFrom = segmentStart
            var b = segmentStart + 1
            while b <= visibleEnd {
                if b == visibleEnd || clusterStart[b] {
                    clusterAdvance.append(Int32(truncatingIfNeeded: prefix[b] - prefix[clusterFrom]))
                    clusterFrom = b
                }
                b += 1
            }
            segClusterEnd.append(Int32(clusterAdvance.count))
            segmentStart = end
            if end >= n { break }
        }
        counters.broken += 1
    }

    /// English, for every text (HarfBuzz languages are interned: the same pointer every call).
    private let language = hb_language_from_string("en", -1)

    @inline(__always)
    private static func hangs(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    // MARK: Filling lines

    @inline(__always)
    private func fits(_ units: Int, _ font: Font, _ width: Double) -> Bool {
        Double(units) * font.size / Double(font.face.unitsPerEm) <= width + Self.widthTolerance
    }

    /// Greedy line filling over the scratch analysis or a cached one.
    private func fill(scratch: Bool, entry: Int, font fontIndex: Int, width: Double, maxLines: Int) -> LabelTextLayout {
        let start = timing ? Self.now() : 0
        counters.filled += 1
        let result = layoutbenchTextFilling(self, scratch, entry, fontIndex, width, maxLines)
        if timing { counters.breakingNanoseconds += Self.now() - start }
        return result
    }

    /// The filling of `fill(scratch:entry:font:width:maxLines:)`, in `layoutbench_text_filling`.
    func fillBody(scratch: Bool, entry: Int, font fontIndex: Int, width: Double, maxLines: Int) -> LabelTextLayout {
        let font = fonts[fontIndex]
        let result: LabelTextLayout
        if scratch {
            result = Self.fill(segFull[...], segVisible[...], segHard[...], segClusterEnd[...], clusterBase: 0, clusterAdvance,
                               font: font, width: width, maxLines: maxLines, fits: fits)
        } else {
            let e = entries[entry]
            let range = e.segmentStart..<(e.segmentStart + e.segmentCount)
            result = Self.fill(cacheSegFull[range], cacheSegVisible[range], cacheSegHard[range], cacheSegClusterEnd[range],
                               clusterBase: e.clusterStart, cacheClusters, font: font, width: width, maxLines: maxLines, fits: fits)
        }
        return result
    }

    private static func fill(_ full: ArraySlice<Int>, _ visible: ArraySlice<Int>, _ hard: ArraySlice<Bool>, _ clusterEnd: ArraySlice<Int32>,
                             clusterBase: Int, _ clusters: [Int32], font: Font, width: Double, maxLines: Int,
                             fits: (Int, Font, Double) -> Bool) -> LabelTextLayout {
        var lines = 0
        var widest = 0
        var open = false
        var used = 0       // the line's units, the last segment's hanging part included
        var shown = 0      // the line's units without it
        var clusterFrom = clusterBase
        for s in full.indices {
            let clusterTo = clusterBase + Int(clusterEnd[s])
            defer { clusterFrom = clusterTo }
            if open, fits(used + visible[s], font, width) {
                shown = used + visible[s]
                used += full[s]
            } else {
                if open {
                    lines += 1
                    if shown > widest { widest = shown }
                }
                if fits(visible[s], font, width) {
                    shown = visible[s]
                    used = full[s]
                } else {
                    // Wider than a line: split between clusters, at least one a line.
                    var part = 0
                    var partOpen = false
                    for c in clusterFrom..<clusterTo {
                        let advance = Int(clusters[c])
                        if partOpen, !fits(part + advance, font, width) {
                            lines += 1
                            if part > widest { widest = part }
                            part = 0
                        }
                        part += advance
                        partOpen = true
                    }
                    shown = part
                    used = part + (full[s] - visible[s])
                }
                open = true
            }
            if hard[s] {
                lines += 1
                if shown > widest { widest = shown }
                open = false
                used = 0
                shown = 0
            }
        }
        if open {
            lines += 1
            if shown > widest { widest = shown }
        }
        if maxLines > 0, lines > maxLines { return LabelTextLayout(width: width, lines: maxLines) }
        return LabelTextLayout(width: Double(widest) * font.size / Double(font.face.unitsPerEm), lines: lines)
    }

    // MARK: The cache

    /// The cached analysis of `text` in `font`, made on a miss.
    private func cachedEntry(_ text: UnsafeBufferPointer<UInt8>, font: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(font)
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var candidate = buckets[hash] ?? -1
        while candidate >= 0 {
            let e = entries[Int(candidate)]
            if e.font == Int32(font), e.bytesCount == text.count,
               cachedBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + e.bytesStart, text.baseAddress!, text.count) == 0 }) {
                counters.analysisHits += 1
                return Int(candidate)
            }
            candidate = e.next
        }
        if cacheBytes > cacheBudget { clearCache() }
        analyze(text, font: font)
        let index = entries.count
        entries.append(Entry(bytesStart: cachedBytes.count, bytesCount: text.count, font: Int32(font),
                             segmentStart: cacheSegFull.count, segmentCount: segFull.count, clusterStart: cacheClusters.count,
                             next: buckets[hash] ?? -1, intrinsic: 0))
        buckets[hash] = Int32(index)
        cachedBytes.append(contentsOf: text)
        cacheSegFull.append(contentsOf: segFull)
        cacheSegVisible.append(contentsOf: segVisible)
        cacheSegHard.append(contentsOf: segHard)
        cacheSegClusterEnd.append(contentsOf: segClusterEnd)
        cacheClusters.append(contentsOf: clusterAdvance)
        entries[index].intrinsic = fill(scratch: true, entry: -1, font: font, width: .infinity, maxLines: 0).width
        return index
    }

    private var cacheBytes: Int {
        cachedBytes.count + 17 * cacheSegFull.count + 4 * cacheClusters.count + 48 * entries.count + 40 * layouts.count
    }

    @inline(__always)
    private static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

// The parts of a text measurement under names of their own, never inlined, so that callgrind's
// profile (`--instructions`) counts each part exactly: `shaping_instructions` and
// `breaking_instructions` are their inclusive instructions (docs/csv.md).

@_silgen_name("layoutbench_text_shaping") @inline(never)
func layoutbenchTextShaping(_ measurer: ShapedTextMeasurer, _ text: UnsafeBufferPointer<UInt8>, _ font: Int) {
    measurer.shapeBody(text, font: font)
}

@_silgen_name("layoutbench_text_breaking") @inline(never)
func layoutbenchTextBreaking(_ measurer: ShapedTextMeasurer, _ text: UnsafeBufferPointer<UInt8>) {
    measurer.breakBody(text)
}

@_silgen_name("layoutbench_text_filling") @inline(never)
func layoutbenchTextFilling(_ measurer: ShapedTextMeasurer, _ scratch: Bool, _ entry: Int, _ font: Int, _ width: Double, _ maxLines: Int) -> LabelTextLayout {
    measurer.fillBody(scratch: scratch, entry: entry, font: font, width: width, maxLines: maxLines)
}
#endif
