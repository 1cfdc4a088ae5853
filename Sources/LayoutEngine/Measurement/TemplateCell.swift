/// Deterministic text measurement standing in for Auto Layout's prototype ("template") cell
/// (FDTemplateLayoutCell, docs/modes.md): a cell with one multi-line label inside padding.
///
/// The label lays its text out the way a text engine does, greedily: words (separated by
/// spaces) go on the current line while they fit in the available width
/// `width - padding.left - padding.right`, otherwise on a new line; the space before a word that
/// starts a new line is not counted. A word wider than a whole line is broken across lines
/// (character wrapping, modelled as a continuous split: it fills whole lines and its remainder
/// starts the next one, which later words may share). A line feed ends the line. Each glyph's
/// advance comes from a fixed table by character class, scaled by `fontScale` (1 = a 17 pt
/// system font); every non-ASCII character counts as one wide glyph.
///
/// Height = `padding.top + lines * lineHeight + padding.bottom`, at least `minimumHeight`;
/// empty text has no lines. Same input, same height on every platform (only additions,
/// multiplications and comparisons of doubles, in a fixed order). The cost is one pass over
/// the UTF-8 bytes — it grows with the length of the text and allocates nothing. Narrowing the
/// width or appending words never makes the height smaller.
public struct TemplateCell: Hashable, Sendable, Codable {
    public var lineHeight: Double
    /// Multiplies every advance width (1 = the table's 17 pt font).
    public var fontScale: Double
    public var padding: EdgeInsets
    public var minimumHeight: Double

    public init(
        lineHeight: Double = 20.5, fontScale: Double = 1,
        padding: EdgeInsets = EdgeInsets(top: 11, left: 16, bottom: 11, right: 16), minimumHeight: Double = 0
    ) {
        self.lineHeight = lineHeight
        self.fontScale = fontScale
        self.padding = padding
        self.minimumHeight = minimumHeight
    }

    /// The height of a cell showing `text` at cell width `width`.
    @inlinable
    public func height(of text: some StringProtocol, width: Double) -> Double {
        height(forLines: lineCount(of: text.utf8, width: width))
    }

    /// The height of a cell showing the UTF-8 text `bytes` at cell width `width`.
    @inlinable
    public func height<Bytes: Sequence<UInt8>>(of bytes: Bytes, width: Double) -> Double {
        height(forLines: lineCount(of: bytes, width: width))
    }

    @inlinable
    public func height(forLines lines: Int) -> Double {
        let natural = padding.top + Double(lines) * lineHeight + padding.bottom
        return natural > minimumHeight ? natural : minimumHeight
    }

    /// The label's width for a cell of width `width` (at least one point).
    @inlinable
    public func labelWidth(forCellWidth width: Double) -> Double {
        let available = width - padding.left - padding.right
        return available > 1 ? available : 1
    }

    /// How many lines the text takes at cell width `width`.
    @inlinable
    public func lineCount<Bytes: Sequence<UInt8>>(of bytes: Bytes, width: Double) -> Int {
        // Work in unscaled table units: compare against the label width divided by the scale.
        Self.lineCount(of: bytes, limit: labelWidth(forCellWidth: width) / (fontScale > 0 ? fontScale : 1))
    }

    /// How many lines the text takes on lines `limit` table units wide (the label's width divided
    /// by `fontScale`).
    @inlinable
    public static func lineCount<Bytes: Sequence<UInt8>>(of bytes: Bytes, limit: Double) -> Int {
        var lines = 0
        var used = 0.0        // width taken on the current line
        var lineOpen = false  // whether the current line holds anything
        var spaces = 0.0      // width of the spaces since the last word
        var word = 0.0        // width of the word being read
        var inWord = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 {
                if inWord {
                    place(word, spaces: spaces, limit: limit, lines: &lines, used: &used, lineOpen: &lineOpen)
                    inWord = false
                    word = 0
                    spaces = 0
                }
                if byte == 0x0A {
                    lines += 1
                    used = 0
                    lineOpen = false
                    spaces = 0
                } else {
                    spaces += byte == 0x09 ? 4 * spaceAdvance : spaceAdvance
                }
            } else {
                word += advance(byte)
                inWord = true
            }
        }
        if inWord { place(word, spaces: spaces, limit: limit, lines: &lines, used: &used, lineOpen: &lineOpen) }
        return lineOpen ? lines + 1 : lines
    }

    @inlinable @inline(__always)
    static func place(_ word: Double, spaces: Double, limit: Double, lines: inout Int, used: inout Double, lineOpen: inout Bool) {
        if lineOpen {
            if used + spaces + word <= limit {
                used += spaces + word
                return
            }
            lines += 1
        }
        if word <= limit {
            used = word
        } else {
            // Character wrapping: whole lines, then the remainder opens the next line.
            // Saturates instead of trapping on an absurd scale (the harness bounds `fontScale`).
            // NaN (an infinite word at an infinite width) saturates too: `min` would pass it on to `Int(_:)`.
            let wrapped = (word / limit).rounded(.up) - 1
            let full = wrapped.isNaN ? Self.maximumLinesPerWord : Swift.min(wrapped, Self.maximumLinesPerWord)
            lines &+= Int(full)
            used = word - full * limit
        }
        lineOpen = true
    }

    /// The most lines one word is counted as taking (a width or scale beyond any real text).
    public static let maximumLinesPerWord = 1e12

    /// Advance of a space, in table units.
    public static let spaceAdvance = 4.5

    /// Advance of one UTF-8 byte in table units (a 17 pt proportional font, by character class).
    /// Continuation bytes of a multi-byte character have no advance; its lead byte counts as
    /// one wide glyph.
    @inlinable @inline(__always)
    public static func advance(_ byte: UInt8) -> Double {
        switch byte {
        case 0x69, 0x6A, 0x6C, 0x49, 0x2E, 0x2C, 0x3A, 0x3B, 0x27, 0x21, 0x7C: return 4.5   // i j l I . , : ; ' ! |
        case 0x66, 0x72, 0x74, 0x28, 0x29, 0x5B, 0x5D, 0x2D: return 6                       // f r t ( ) [ ] -
        case 0x6D, 0x77: return 13.5                                                        // m w
        case 0x4D, 0x57, 0x40, 0x25: return 15.5                                            // M W @ %
        case 0x61...0x7A: return 9                                                          // other lowercase
        case 0x41...0x5A: return 11.5                                                       // other uppercase
        case 0x30...0x39: return 10                                                         // digits
        case 0x80...0xBF: return 0                                                          // UTF-8 continuation
        case 0xC0...0xFF: return 15                                                         // non-ASCII character
        case 0x00...0x1F, 0x7F: return 0                                                    // control characters
        default: return 8                                                                   // other punctuation
        }
    }
}
