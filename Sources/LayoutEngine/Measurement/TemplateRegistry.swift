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
public struct TemplateRegistry: Sendable {
    public private(set) var names: [String] = []
    private var indexByName: [String: Int] = [:]
    @usableFromInline var templates: [RowTemplate] = []
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
        if let index = indexByName[name] {
            templates[index] = template
            created[index] = false
            return ReuseIdentifier(index: index)
        }
        indexByName[name] = templates.count
        names.append(name)
        templates.append(template)
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
        return freshHeight(of: content, reuseIdentifier: identifier, width: width)
    }

    /// The same height, not counted: what verification compares every cache against.
    @inlinable
    public func freshHeight(of content: RowContent, reuseIdentifier identifier: ReuseIdentifier, width: Double) -> Double {
        templates[identifier.index].height(of: content, width: width)
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

    /// Forgets the created template cells too, as a new table would.
    public mutating func discardTemplateCells() {
        for i in created.indices { created[i] = false }
    }
}
