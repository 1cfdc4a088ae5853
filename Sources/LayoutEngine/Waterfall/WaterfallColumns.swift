/// The geometry of a waterfall's columns: where each starts and how wide it is.
public struct WaterfallColumns: Hashable, Sendable {
    public var minX: [Double]
    public var width: [Double]

    /// Equal columns `(regionWidth - (columns - 1) * spacing) / columns` wide, or widths in
    /// proportion to `weights`; column c starts after the columns before it and their spacing.
    public init(style: WaterfallStyle, regionLeft: Double, regionWidth: Double, spacing: Double) {
        let columns = style.columns
        let available = regionWidth - Double(columns - 1) * spacing
        var minX: [Double] = [], width: [Double] = []
        minX.reserveCapacity(columns)
        width.reserveCapacity(columns)
        if let weights = style.weights {
            let total = weights.reduce(0, +)
            var x = regionLeft
            for c in 0..<columns {
                let w = available * weights[c] / total
                minX.append(x)
                width.append(w)
                x += w + spacing
            }
        } else {
            let w = available / Double(columns)
            for c in 0..<columns {
                minX.append(regionLeft + Double(c) * (w + spacing))
                width.append(w)
            }
        }
        self.minX = minX
        self.width = width
    }

    public var count: Int { minX.count }
}
