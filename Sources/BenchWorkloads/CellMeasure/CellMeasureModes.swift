import LayoutEngine
import BenchResults

extension CellMeasureWorkload {
    package enum Mode: String, WorkloadMode {
        case freshEngine = "fresh-engine"
        case fdAddRemove = "fd-add-remove"
        case editWidth = "edit-width"
        case frame
        /// `fd-add-remove` and `edit-width` with a text cache: shaped runs by (text, font) and
        /// line breaks by width, as text engines keep them (labels with a font only).
        case fdAddRemoveTextCache = "fd-add-remove-text-cache"
        case editWidthTextCache = "edit-width-text-cache"
        /// `fd-add-remove` and `edit-width` with each pass's label constants changed as one
        /// batch, then one dual simplex; with and without the text cache.
        case fdAddRemoveBatched = "fd-add-remove-batched"
        case editWidthBatched = "edit-width-batched"
        case fdAddRemoveBatchedTextCache = "fd-add-remove-batched-text-cache"
        case editWidthBatchedTextCache = "edit-width-batched-text-cache"

        package var about: String {
            switch self {
            case .freshEngine: return "a new solver with all of the template's constraints per measurement, both passes solved"
            case .fdAddRemove: return "one long-lived solver per template; per measurement a required width constraint is added, the cell solved and read, the constraint removed"
            case .editWidth: return "one long-lived solver per template with the width as an edit variable: suggest the width, re-optimise by the dual simplex, read"
            case .frame: return "the template's closed form written by hand, no solver (built-in row kinds only)"
            case .fdAddRemoveTextCache: return "fd-add-remove with the labels' text cached: shaped runs by (text, font), line breaks by width (labels with a font only)"
            case .editWidthTextCache: return "edit-width with the labels' text cached: shaped runs by (text, font), line breaks by width (labels with a font only)"
            case .fdAddRemoveBatched: return "fd-add-remove with each pass's changed label constants staged, then one dual simplex per pass"
            case .editWidthBatched: return "edit-width with each pass's changed label constants (and pass 1's width) staged, then one dual simplex per pass"
            case .fdAddRemoveBatchedTextCache: return "fd-add-remove-batched with the labels' text cached (labels with a font only)"
            case .editWidthBatchedTextCache: return "edit-width-batched with the labels' text cached (labels with a font only)"
            }
        }

        package var reproduces: String {
            switch self {
            case .freshEngine: return "a prototype cell instantiated from its XIB for every measurement"
            case .fdAddRemove: return "FDTemplateLayoutCell's systemLayoutSizeFittingSize: with a temporary width constraint"
            case .editWidth: return "Cassowary's edit variables (kiwi, Auto Layout's engine kept warm)"
            case .frame: return "sizeThatFits / FD's fd_enforceFrameLayout / lpd-tableview-kit's height in the view model"
            case .fdAddRemoveTextCache, .editWidthTextCache: return "a text engine's caches of shaped runs and line breaks (Core Text, TextKit, Texture's text cache) under a warm solver"
            case .fdAddRemoveBatched, .editWidthBatched, .fdAddRemoveBatchedTextCache, .editWidthBatchedTextCache:
                return "none: a pass's intrinsic-size changes applied together, then one re-solve"
            }
        }

        package var accuracyMetric: Metric? { nil }

        /// The rows' template index; the solvers are per template, not per row.
        package var bytesPerItem: Double { 16 }

        var strategy: TemplateSolveStrategy? {
            switch self {
            case .freshEngine: return .freshEngine
            case .fdAddRemove, .fdAddRemoveTextCache: return .addRemove
            case .editWidth, .editWidthTextCache: return .editWidth
            case .fdAddRemoveBatched, .fdAddRemoveBatchedTextCache: return .addRemoveBatched
            case .editWidthBatched, .editWidthBatchedTextCache: return .editWidthBatched
            case .frame: return nil
            }
        }

        /// Whether the mode's text measurer keeps a cache.
        var cachesText: Bool {
            switch self {
            case .fdAddRemoveTextCache, .editWidthTextCache, .fdAddRemoveBatchedTextCache, .editWidthBatchedTextCache: return true
            case .freshEngine, .fdAddRemove, .editWidth, .frame, .fdAddRemoveBatched, .editWidthBatched: return false
            }
        }
    }
}
