/// A label's font: a family the text measurer knows (docs/text.md), at a point size.
public struct LabelFont: Hashable, Sendable, Codable {
    public var family: String
    public var size: Double

    public init(family: String, size: Double) {
        self.family = family
        self.size = size
    }
}

/// What a text engine reports for a label's text at a width.
public struct LabelTextLayout: Hashable, Sendable {
    /// The widest line in points (the label's width when the last line is truncated).
    public var width: Double
    /// Lines, capped by the label's `numberOfLines` when it is not 0.
    public var lines: Int

    public init(width: Double, lines: Int) {
        self.width = width
        self.lines = lines
    }
}

/// Why a text measurer cannot measure a label (an unknown family, a font it cannot open...).
public struct LabelTextError: Error, Hashable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Measures the text of labels that name a font (`TemplateLabel.font`): the engine defines what
/// it asks, a text engine outside it answers (the harness's `TextShaping`: HarfBuzz, FreeType and
/// ICU), so LayoutEngine stays pure Swift. Text is UTF-8.
///
/// A measurer may keep caches and scratch buffers: it is a reference, used by one thread at a
/// time; a `TemplateMeasurer` that holds one shares it with its copies.
public protocol LabelTextMeasuring: AnyObject {
    /// A handle for `font`, valid for this measurer's other calls; throws when the family is
    /// unknown, the size out of bounds, or the font cannot be opened.
    func resolve(_ font: LabelFont) throws(LabelTextError) -> Int
    /// The text on lines broken only where it must break (line feeds): the widest line, in points.
    func intrinsicWidth(of text: UnsafeBufferPointer<UInt8>, font: Int) -> Double
    /// The text laid out on lines `width` points wide, at most `maxLines` (0 = no limit).
    func layout(of text: UnsafeBufferPointer<UInt8>, font: Int, width: Double, maxLines: Int) -> LabelTextLayout
}
