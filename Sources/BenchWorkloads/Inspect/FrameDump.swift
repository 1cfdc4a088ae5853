import LayoutEngine
import BenchResults

/// The CSV of `layout-bench dump`: `kind,section,index,x,y,width,height,pinned`, one row per
/// element, coordinates at full precision.
package enum FrameDump {
    package static let header = "kind,section,index,x,y,width,height,pinned"

    package static func csv(_ elements: [LayoutAttributes]) -> String {
        var text = header + "\n"
        for element in elements {
            let frame = element.frame
            text += "\(element.id.kind.name),\(element.id.section),\(element.id.index),"
            text += "\(CSVWriter.format(frame.x)),\(CSVWriter.format(frame.y)),"
            text += "\(CSVWriter.format(frame.width)),\(CSVWriter.format(frame.height)),\(element.isPinned)\n"
        }
        return text
    }
}
