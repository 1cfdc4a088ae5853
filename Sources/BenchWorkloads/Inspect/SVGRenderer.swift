import Foundation
import LayoutEngine
import BenchPlatform

/// Draws a snapshot as SVG: section backgrounds, items, headers and footers (pinned ones
/// highlighted in orange and labelled "pinned", at their pinned frames for the offset), the
/// viewport at the scroll offset as a dashed outline, and the pinOffset line when there is one.
/// Only the band from one viewport above to two below the offset is drawn, so a million-item
/// layout stays small.
package enum SVGRenderer {
    package static func render(_ snapshot: LayoutSnapshot, offset: Double, title: String) -> String {
        let viewport = Rect(x: 0, y: offset, width: snapshot.viewport.width, height: snapshot.viewport.height)
        // The band within the content: an offset beyond it (either way) leaves the band empty at
        // the content's edge rather than upside down (a negative height is not SVG).
        let content = snapshot.contentHeight
        let top = Swift.min(Swift.max(0, offset - viewport.height), content)
        let bottom = Swift.max(top, Swift.min(content, offset + 2 * viewport.height))
        let band = Rect(x: -1e9, y: top, width: 2e9, height: Swift.max(bottom - top, 1))
        let width = snapshot.viewport.width
        let margin = 20.0
        let elements = snapshot.elements(in: band, offset: offset).sorted { $0.zIndex < $1.zIndex }
        let viewTop = top - margin - 24, viewHeight = bottom - top + 2 * margin + 24
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width + 2 * margin))" height="\(fmt(viewHeight))" \
        viewBox="\(fmt(-margin)) \(fmt(viewTop)) \(fmt(width + 2 * margin)) \(fmt(viewHeight))" font-family="Helvetica, Arial, sans-serif">
        <title>\(escape(title))</title>
        <defs><clipPath id="band"><rect x="0" y="\(fmt(top))" width="\(fmt(width))" height="\(fmt(bottom - top))"/></clipPath></defs>
        <rect x="\(fmt(-margin))" y="\(fmt(viewTop))" width="\(fmt(width + 2 * margin))" height="\(fmt(viewHeight))" fill="#ffffff"/>
        <g clip-path="url(#band)">

        """
        for element in elements {
            let f = element.frame
            let style: String
            switch element.id.kind {
            case .decoration: style = "fill=\"#eef3fb\" stroke=\"#c5d3ea\""
            case .header, .footer:
                style = element.isPinned ? "fill=\"#ffd27f\" stroke=\"#c08000\"" : "fill=\"#dde6d5\" stroke=\"#8aa07a\""
            case .item: style = "fill=\"#9ec1e8\" stroke=\"#3f6fa8\" stroke-width=\"0.5\""
            }
            svg += "<rect x=\"\(fmt(f.x))\" y=\"\(fmt(f.y))\" width=\"\(fmt(f.width))\" height=\"\(fmt(f.height))\" \(style)>"
            svg += "<title>\(element.id)</title></rect>\n"
            if element.id.kind != .item || f.height >= 14 {
                svg += "<text x=\"\(fmt(f.x + 3))\" y=\"\(fmt(f.y + Swift.min(f.height - 2, 12)))\" font-size=\"9\" fill=\"#223\">"
                svg += "\(element.id.kind == .item ? "\(element.id.section).\(element.id.index)" : element.id.kind.name + " \(element.id.section)")\(element.isPinned ? " (pinned)" : "")</text>\n"
            }
        }
        svg += "</g>\n<rect x=\"0\" y=\"\(fmt(top))\" width=\"\(fmt(width))\" height=\"\(fmt(bottom - top))\" fill=\"none\" stroke=\"#bbb\"/>\n"
        svg += "<rect x=\"\(fmt(viewport.x))\" y=\"\(fmt(viewport.y))\" width=\"\(fmt(viewport.width))\" height=\"\(fmt(viewport.height))\" "
        svg += "fill=\"none\" stroke=\"#d0342c\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n"
        if snapshot.pinOffset > 0 {
            // The visible top that headers pin to: offset + pinOffset (a navigation bar above it).
            let line = offset + snapshot.pinOffset
            svg += "<line x1=\"0\" y1=\"\(fmt(line))\" x2=\"\(fmt(width))\" y2=\"\(fmt(line))\" stroke=\"#7a3fa8\" stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/>\n"
            svg += "<text x=\"\(fmt(width - 3))\" y=\"\(fmt(line - 3))\" font-size=\"9\" fill=\"#7a3fa8\" text-anchor=\"end\">pinOffset \(fmt(snapshot.pinOffset))</text>\n"
        }
        // The caption last, so nothing covers it.
        svg += "<text x=\"0\" y=\"\(fmt(top - margin + 4))\" font-size=\"11\" fill=\"#333\">\(escape(title))</text>\n"
        svg += "<text x=\"0\" y=\"\(fmt(top - 6))\" font-size=\"10\" fill=\"#666\">y \(fmt(top)) to \(fmt(bottom)) of \(fmt(snapshot.contentHeight)); dashed: the viewport at \(fmt(offset))</text>\n"
        svg += "</svg>\n"
        return svg
    }

    /// A coordinate in SVG's number syntax, to 1/100 pt: integral values without a fraction, large
    /// ones with an exponent ("1e+19"). No conversion to an integer type beyond its range, which
    /// traps (an offset of 1e19 once did).
    private static func fmt(_ value: Double) -> String {
        guard value.isFinite else { return "0" }  // no finite input makes one
        guard abs(value) < 1e15 else { return "\(value)" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int64(rounded)) : "\(rounded)"
    }

    /// Text as XML character data: `&`, `<` and `>` as entities, and the characters that act
    /// rather than show (`DisplayText`: controls, which XML 1.0 does not allow at all, even as
    /// references, and bidirectional overrides) as visible `\uXXXX`, so the SVG stays well-formed.
    private static func escape(_ text: String) -> String {
        DisplayText.escaped(text, keepingLines: false)
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
