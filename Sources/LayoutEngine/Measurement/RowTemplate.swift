/// What a self-sizing row shows: the text of its main label and, for rows that have one, a
/// second text (the body of a title + body row). An image row shows `text` as its caption.
public struct RowContent: Hashable, Sendable {
    public var text: String
    public var detail: String

    public init(text: String, detail: String = "") {
        self.text = text
        self.detail = detail
    }
}

/// The accessory of a table cell, and the width it takes from the content view.
///
/// FDTemplateLayoutCell subtracts these hard-coded widths before it measures a cell
/// (`fd_systemFittingHeightForConfiguratedCell:`): a custom accessory view takes 16 pt plus its
/// own width, a system accessory its fixed width.
public enum RowAccessory: Hashable, Sendable {
    case none
    case disclosureIndicator
    case detailDisclosureButton
    case checkmark
    case detailButton
    case custom(width: Double)

    /// The width FD subtracts from the content view's width for this accessory.
    public var widthTaken: Double {
        switch self {
        case .none: return 0
        case .disclosureIndicator: return 34
        case .detailDisclosureButton: return 68
        case .checkmark: return 40
        case .detailButton: return 48
        case .custom(let width): return 16 + width
        }
    }
}

/// A prototype cell for one kind of row (the cell a XIB registers for a reuse identifier),
/// measured the way FDTemplateLayoutCell measures it: the content view is the table width minus
/// the accessory, the labels wrap at that width (`TemplateCell`), an empty result falls back to
/// 44 pt, and the separator (`separatorHeight`, FD's `1 / scale`) is added.
public struct RowTemplate: Hashable, Sendable {
    /// How the content view stacks its subviews, top to bottom inside `title.padding`.
    public enum Layout: Hashable, Sendable {
        /// One multi-line label showing `RowContent.text`.
        case title
        /// The title label, then, when the body is not empty, `spacing` and a body label
        /// showing `RowContent.detail`.
        case titleAndBody(spacing: Double)
        /// An image as wide as the labels with a fixed `aspectRatio` (width / height), then, when
        /// the caption is not empty, `spacing` and a caption label showing `RowContent.text`.
        case imageWithCaption(aspectRatio: Double, spacing: Double)
    }

    public var layout: Layout
    /// The main label's style; its padding is the content view's padding.
    public var title: TemplateCell
    /// The body or caption label's style (its left and right padding set its width).
    public var body: TemplateCell
    public var accessory: RowAccessory
    /// Added to every height when the table shows separators (FD adds `1 / UIScreen.scale`).
    public var separatorHeight: Double

    public init(
        layout: Layout, title: TemplateCell = TemplateCell(),
        body: TemplateCell = TemplateCell(lineHeight: 18, fontScale: 0.88), accessory: RowAccessory = .none,
        separatorHeight: Double = 0.5
    ) {
        self.layout = layout
        self.title = title
        self.body = body
        self.accessory = accessory
        self.separatorHeight = separatorHeight
    }

    /// FD's fallback when the fitting height is 0 (`fittingHeight = 44`).
    public static let fallbackHeight = 44.0

    /// The height of a row showing `content` in a table `width` wide.
    @inlinable
    public func height(of content: RowContent, width: Double) -> Double {
        var fitting = fittingHeight(text: content.text.utf8, detail: content.detail.utf8, width: width)
        if fitting == 0 { fitting = Self.fallbackHeight }
        return fitting + separatorHeight
    }

    /// The content view's fitting height for a row showing `text` and `detail` in a table
    /// `width` wide (before the separator and the 44 pt fallback): the closed form written by
    /// hand (`sizeThatFits`, FD's `fd_enforceFrameLayout`), which `BuiltInRowKind` also writes as
    /// a constraint template.
    @inlinable
    public func fittingHeight<Text: Sequence<UInt8>, Detail: Sequence<UInt8>>(text: Text, detail: Detail, width: Double) -> Double {
        let contentWidth = width - accessory.widthTaken
        var fitting = 0.0
        if contentWidth > 0 {
            let padding = title.padding
            switch layout {
            case .title:
                fitting = title.height(of: text, width: contentWidth)
            case .titleAndBody(let spacing):
                let titleLines = title.lineCount(of: text, width: contentWidth)
                let bodyLines = body.lineCount(of: detail, width: contentWidth)
                var natural = padding.top + Double(titleLines) * title.lineHeight
                if bodyLines > 0 { natural += spacing + Double(bodyLines) * body.lineHeight }
                natural += padding.bottom
                fitting = max(natural, title.minimumHeight)
            case .imageWithCaption(let aspectRatio, let spacing):
                let imageHeight = aspectRatio > 0 ? title.labelWidth(forCellWidth: contentWidth) / aspectRatio : 0
                let captionLines = body.lineCount(of: text, width: contentWidth)
                var natural = padding.top + imageHeight
                if captionLines > 0 { natural += spacing + Double(captionLines) * body.lineHeight }
                natural += padding.bottom
                fitting = max(natural, title.minimumHeight)
            }
        }
        return fitting
    }
}
