/// A reuse identifier registered with a `TemplateRegistry`: a small index, so that rows carry
/// no string and a measurement does no string hashing.
public struct ReuseIdentifier: Hashable, Sendable {
    public let index: Int

    @usableFromInline init(index: Int) { self.index = index }
}

/// The template ("prototype") cells of a table, one per reuse identifier, as
/// FDTemplateLayoutCell keeps them (`fd_templateCellForReuseIdentifier:`): templates are
/// registered up front (`registerNib:forCellReuseIdentifier:`), and the cell for an identifier is
/// created on its first measurement and reused for every later one.
///
/// It counts what the caches exist to avoid: `measurements` (every height computed by a
/// template) and `cellsCreated` (template cells instantiated).
public struct TemplateRegistry: UnsharedCopying, Sendable {
    public private(set) var names: [String] = []
    private var indexByName: [String: Int] = [:]
    @usableFromInline var templates: [RowTemplate] = []
    /// Per identifier, the constraint template's measurer (FDTemplateLayoutCell's way: a width
    /// constraint added and removed per measurement), or nil for a closed-form row.
    @usableFromInline var constraintCells: [TemplateMeasurer?] = []
    /// The row width minus the accessory, per identifier with a constraint template.
    @usableFromInline var accessoryWidths: [Double] = []
    private var created: [Bool] = []
    /// Heights computed by a template since the last `resetCounters()`.
    public private(set) var measurements = 0
    /// Template cells created since the last `resetCounters()`.
    public private(set) var cellsCreated = 0

    public init() {}

    /// Registers `template` for `name` (replacing an earlier registration, whose cell is then
    /// created again on the next measurement) and returns the identifier rows refer to.
    @discardableResult
    public mutating func register(_ template: RowTemplate, forReuseIdentifier name: String) -> ReuseIdentifier {
        add(template, constraints: nil, accessoryWidth: 0, name: name)
    }

    /// Registers a constraint template (docs/scenario-format.md, constraint templates) for `name`: its rows are measured by solving
    /// its constraints in UIKit's two passes, on one long-lived solver per identifier to which
    /// each measurement adds the width constraint and then removes it, as FDTemplateLayoutCell
    /// measures (`systemLayoutSizeFittingSize:`).
    @discardableResult
    public mutating func register(constraints template: CellTemplate, forReuseIdentifier name: String,
                                  text: (any LabelTextMeasuring)? = nil) throws(TemplateMeasurementError) -> ReuseIdentifier {
        let measurer = try TemplateMeasurer(template: template, strategy: .addRemove, text: text)
        return add(RowTemplate(layout: .title), constraints: measurer, accessoryWidth: template.accessoryWidth, name: name)
    }

    private mutating func add(_ template: RowTemplate, constraints: TemplateMeasurer?, accessoryWidth: Double, name: String) -> ReuseIdentifier {
        if let index = indexByName[name] {
            templates[index] = template
            constraintCells[index] = constraints
            accessoryWidths[index] = accessoryWidth
            created[index] = false
            return ReuseIdentifier(index: index)
        }
        indexByName[name] = templates.count
        names.append(name)
        templates.append(template)
        constraintCells.append(constraints)
        accessoryWidths.append(accessoryWidth)
        created.append(false)
        return ReuseIdentifier(index: templates.count - 1)
    }

    /// The identifier registered under `name`, or nil.
    public func identifier(named name: String) -> ReuseIdentifier? {
        indexByName[name].map { ReuseIdentifier(index: $0) }
    }

    public func template(for identifier: ReuseIdentifier) -> RowTemplate { templates[identifier.index] }

    /// Whether `identifier` came from this registry.
    public func contains(_ identifier: ReuseIdentifier) -> Bool { identifier.index >= 0 && identifier.index < templates.count }

    /// Measures `content` with the template of `identifier` at table width `width`, creating the
    /// template cell first if this identifier has none yet. Counted.
    @inlinable
    public mutating func height(of content: RowContent, reuseIdentifier identifier: ReuseIdentifier, width: Double) -> Double {
        noteMeasurement(identifier)
        if constraintCells[identifier.index] != nil {
            return Self.rowHeight(&constraintCells[identifier.index]!, content, width: width - accessoryWidths[identifier.index])
        }
        return templates[identifier.index].height(of: content, width: width)
    }

    /// A constraint template's row height: its fitting height plus the separator, 44 for 0. A
    /// measurement the solver refuses (only an unsatisfiable template, which scenarios refuse at
    /// load, or the pivot bound) is NaN, which every verification reports.
    @usableFromInline
    static func rowHeight(_ measurer: inout TemplateMeasurer, _ content: RowContent, width: Double) -> Double {
        do {
            return CellTemplate.rowHeight(fitting: try measurer.fittingHeight(of: content, width: width))
        } catch {
            return .nan
        }
    }

    /// The same height, not counted: what verification compares every cache against.
    @inlinable
    public func freshHeight(of content: RowContent, reuseIdentifier identifier: ReuseIdentifier, width: Double) -> Double {
        if let cell = constraintCells[identifier.index] {
            // A new solver with every constraint: no state shared with the measuring cell.
            guard var fresh = try? TemplateMeasurer(system: cell.system, strategy: .freshEngine, text: cell.textMeasurer) else { return .nan }
            return Self.rowHeight(&fresh, content, width: width - accessoryWidths[identifier.index])
        }
        return templates[identifier.index].height(of: content, width: width)
    }

    @usableFromInline
    mutating func noteMeasurement(_ identifier: ReuseIdentifier) {
        if !created[identifier.index] {
            created[identifier.index] = true
            cellsCreated += 1
        }
        measurements += 1
    }

    /// Zeroes the counters (the template cells stay created).
    public mutating func resetCounters() {
        measurements = 0
        cellsCreated = 0
    }

    /// A copy whose template cells are its own (`UnsharedCopying`).
    @usableFromInline package func unsharedCopy() -> TemplateRegistry {
        var copy = self
        copy.constraintCells = constraintCells.unsharedCopy()
        for i in copy.constraintCells.indices { copy.constraintCells[i] = copy.constraintCells[i]?.unsharedCopy() }
        copy.created = created.unsharedCopy()
        return copy
    }

    /// Forgets the created template cells too, as a new table would.
    public mutating func discardTemplateCells() {
        for i in created.indices { created[i] = false }
    }
}
