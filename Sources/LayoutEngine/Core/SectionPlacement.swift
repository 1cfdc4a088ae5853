/// The input and output of placing the items of one section: item sizes in, frames out, all
/// as unsafe buffers over the layout's flat arrays so the loops run without bounds checks or
/// reference counting. y values are relative to the top of the section. A placement must write
/// all four outputs of every item: a first layout hands it uninitialised memory.
public struct SectionPlacement {
    public var widths: UnsafeBufferPointer<Double>
    public var heights: UnsafeBufferPointer<Double>
    public var spansAllColumns: UnsafeBufferPointer<Bool>
    /// Left edge and width of the items region (`insets.left`, `W - insets.horizontal`).
    public var regionLeft: Double
    public var regionWidth: Double
    /// Where the items region starts (section-relative: header height + top inset).
    public var regionTop: Double
    public var style: SectionStyle

    public var minX: UnsafeMutableBufferPointer<Double>
    public var minY: UnsafeMutableBufferPointer<Double>
    public var width: UnsafeMutableBufferPointer<Double>
    public var height: UnsafeMutableBufferPointer<Double>

    @inlinable public var count: Int { heights.count }
}
