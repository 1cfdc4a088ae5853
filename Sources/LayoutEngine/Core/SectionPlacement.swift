/// The input and output of placing the items of one section: item sizes in, frames out, all
/// as unsafe buffers over the layout's flat arrays so the loops run without bounds checks or
/// reference counting. y values are relative to the top of the section. A placement must write
/// all four outputs of every item: a first layout hands it uninitialised memory. It holds only
/// pointers and numbers (the section's kind travels beside it), so passing and copying it costs
/// no reference counting.
public struct SectionPlacement {
    public var widths: UnsafeBufferPointer<Double>
    public var heights: UnsafeBufferPointer<Double>
    public var spansAllColumns: UnsafeBufferPointer<Bool>
    /// Left edge and width of the items region (`insets.left`, `W - insets.horizontal`).
    public var regionLeft: Double
    public var regionWidth: Double
    /// Where the items region starts (section-relative: header height + top inset).
    public var regionTop: Double
    /// The style's `itemSpacing` (between items of a flow row, between waterfall columns) and
    /// `lineSpacing` (between list items, flow rows, items of a waterfall column).
    public var itemSpacing: Double
    public var lineSpacing: Double

    public var minX: UnsafeMutableBufferPointer<Double>
    public var minY: UnsafeMutableBufferPointer<Double>
    public var width: UnsafeMutableBufferPointer<Double>
    public var height: UnsafeMutableBufferPointer<Double>

    @inlinable public var count: Int { heights.count }
}
