/// The limits of text a label may be given (docs/text.md), checked where scenarios and data
/// files are read. Pure Swift, in every build: a text over a limit is refused the same way with
/// the RealText trait and without it.
public enum TextLimits {
    /// Point sizes are in (0, maximumPointSize].
    public static let maximumPointSize = 1000.0
    /// The longest text of one label, in UTF-8 bytes.
    public static let maximumBytes = 65_536

    /// The most combining marks (general category M) and default-ignorable characters (joiners,
    /// variation selectors, invisible format characters) one text may hold in a row. HarfBuzz
    /// positions each mark by looking back over the marks and ignorables before it to its base,
    /// so shaping a run of n costs n²: one long run within `maximumBytes` stalls every
    /// measurement of its label. A cap on the run bounds the cost of every byte, as Unicode's
    /// stream-safe text format (UAX #15, 30 non-starters) and HarfBuzz's own 32-mark reordering
    /// cap bound runs of marks; real text stays far below it (a Vietnamese letter has two).
    public static let maximumMarkRun = 32

    /// The error of a text with `run` (from `longMarkRun`), for the line naming its file and field.
    public static func markRunMessage(_ run: (offset: Int, count: Int)) -> String {
        "\(run.count) combining marks or default-ignorable characters in a row from byte \(run.offset); at most "
            + "\(maximumMarkRun) in a row (shaping a run costs the square of its length; docs/text.md)"
    }

    /// The first run in `text` (UTF-8) longer than `maximumMarkRun`: the byte offset of its
    /// first character and its length in characters; nil when there is none.
    public static func longMarkRun<Bytes: Collection<UInt8>>(in text: Bytes) -> (offset: Int, count: Int)? {
        // Every mark and default-ignorable character is at U+00AD or above; below U+0300 only
        // the soft hyphen, whose lead byte is 0xC2. Text without such bytes needs no decoding.
        guard text.contains(where: { $0 >= 0xCC || $0 == 0xC2 }) else { return nil }
        var iterator = text.makeIterator()
        var decoder = UTF8()
        var offset = 0, runStart = 0, run = 0
        while true {
            let width: Int
            var inRun = false
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                width = UTF8.width(scalar)
                if scalar.value >= 0x80 {
                    let properties = scalar.properties
                    switch properties.generalCategory {
                    case .nonspacingMark, .spacingMark, .enclosingMark: inRun = true
                    default: inRun = properties.isDefaultIgnorableCodePoint
                    }
                }
            case .emptyInput:
                return run > maximumMarkRun ? (runStart, run) : nil
            case .error:
                width = 1
            }
            if inRun {
                if run == 0 { runStart = offset }
                run += 1
            } else {
                if run > maximumMarkRun { return (runStart, run) }
                run = 0
            }
            offset += width
        }
    }
}
