import LayoutEngine

/// What the placement of one section's items needs to know, in section coordinates: the items'
/// sizes, the style, and where the items region is (y relative to the top of the section).
struct ReferenceSectionInput {
    var widths: ArraySlice<Double>
    var heights: ArraySlice<Double>
    var spansAllColumns: ArraySlice<Bool>
    var style: SectionStyle
    /// `insets.left`.
    var regionLeft: Double
    /// `W - insets.left - insets.right`.
    var regionWidth: Double
    /// Header height plus top inset.
    var regionTop: Double

    var count: Int { heights.count }

    /// Width of the item at section index `i`.
    func width(_ i: Int) -> Double { widths[widths.startIndex + i] }
    /// Height of the item at section index `i`.
    func height(_ i: Int) -> Double { heights[heights.startIndex + i] }
    /// Whether the item at section index `i` spans all waterfall columns.
    func spans(_ i: Int) -> Bool { spansAllColumns[spansAllColumns.startIndex + i] }
}
