import BenchPlatform

/// The upper bounds a scenario file must respect, in one place (docs/scenario-format.md: "every count has a
/// documented upper bound, and every accepted scenario has finite geometry").
///
/// Each bound is checked where its key is parsed, so the error names the key's JSON path. The
/// bounds are generous for benchmarking (a sweep to 1,000,000 items is routine) and small enough
/// that no product of them overflows `Int`, and that a scenario within them is refused by
/// `ScenarioFootprint` — with an estimate and the path of the count that drives it — before it
/// could exhaust memory or leave finite geometry. docs/scenario-format.md lists them.
package enum ScenarioLimits {
    /// An entry of `items`, and the number of explicit items (`data.sections`, `data.file`).
    package static let maxItems = 100_000_000
    /// Entries in the `items` sweep.
    package static let maxItemCounts = 100
    /// Entries in `modes`.
    package static let maxModes = 64
    /// `data.generate.sections`, and the number of explicit sections.
    package static let maxSections = 1_000_000
    /// `layout.columns` of a waterfall (and so the entries of `weights`).
    package static let maxColumns = 1_000
    /// Entries in `layout.sections` (per-section overrides).
    package static let maxSectionStyles = 10_000
    /// `maxWords` of a text distribution: words in one item's text.
    package static let maxWords = 10_000
    /// UTF-8 bytes of a scenario's `name`, which names its rows in every results file and is
    /// part of paths and keys built from it (the suite's longest is under 40).
    package static let maxNameBytes = 128
    /// UTF-8 bytes of a scenario's `description` (one sentence or a short paragraph).
    package static let maxDescriptionBytes = 4_096
    /// `workload.steps` of `append` and `edit`.
    package static let maxSteps = 100_000
    /// `workload.batch` of `append`: items appended per step.
    package static let maxBatch = 1_000_000
    /// `workload.frames` of `query`: frames in the scroll trace.
    package static let maxFrames = 1_000_000
    /// Any single size, spacing, inset, pin offset or viewport dimension, in points (1e9 pt is
    /// some 350 km of screen; larger values are typos or attempts to overflow).
    package static let maxSize = 1e9
    /// A column weight (weights are relative; the cap keeps `width * weight` finite).
    package static let maxWeight = 1e9
    /// `fontScale` of a text distribution (1 = a 17 pt font).
    package static let maxFontScale = 1_000.0
    /// The largest content height (and so every coordinate) an accepted scenario may produce at
    /// its largest item count after its workload: 1e13 pt keeps positions exact to 1/500 pt.
    package static let maxContentHeight = 1e13
    /// Row sums of an `offsets` `resize-storm` (resizes × rows at the largest item count): every
    /// resize re-sums every row in the reference and the O(n) structures, so a `reverse` storm is
    /// quadratic in the rows; 1e10 is a `reverse` storm of 100,000 rows, where a million rows
    /// would outlast the default stall timeout.
    package static let maxStormRowSums = 1e10
    /// The share of the machine's physical memory a scenario may be estimated to need.
    package static let memoryShare = 0.8
    /// The largest scenario or data file read, in bytes (2 GiB: about 100 million items of CSV).
    /// Only regular files are read: `/dev/zero` or a FIFO would never end.
    package static let maxFileBytes = FileBytesLimit.maxFileBytes
    /// The longest line of a data file, in bytes: a row of `maxWords` words of text fits many
    /// times over. A longer line is refused as soon as that many bytes are read, so a malformed
    /// file of gigabytes costs neither the time nor the memory of reading it.
    package static let maxDataLineBytes = 1 << 20
    /// Templates in `data.templates`.
    package static let maxTemplates = 100
    /// Views of one template (`contentView` not counted).
    package static let maxTemplateViews = 64
    /// Constraints of one template.
    package static let maxTemplateConstraints = 256
    /// `lines` of a template label.
    package static let maxLabelLines = 10_000
    /// The multiplier of a template constraint, in absolute value.
    package static let maxMultiplier = 1_000.0
}
