import LayoutEngine

/// The CSV of `layout-bench dump`: `kind,section,index,x,y,width,height,pinned`, one row per
/// element, coordinates at full precision.
public enum FrameDump {
    public static let header = "kind,section,index,x,y,width,height,pinned"

    public static func csv(_ elements: [LayoutAttributes]) -> String {
        var text = header + "\n"
        for element in elements {
            let frame = element.frame
            text += "\(element.id.kind.name),\(element.id.section),\(element.id.index),"
            text += "\(CSVNumber.format(frame.x)),\(CSVNumber.format(frame.y)),"
            text += "\(CSVNumber.format(frame.width)),\(CSVNumber.format(frame.height)),\(element.isPinned)\n"
        }
        return text
    }
}

/// Numbers as the CSV files write them: integers without a fraction, others at full precision.
public enum CSVNumber {
    public static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
