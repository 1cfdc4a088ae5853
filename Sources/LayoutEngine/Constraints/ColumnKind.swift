/// What a column of the solver's tableau stands for (the symbols of the Cassowary papers).
enum ColumnKind: UInt8 {
    /// Unused; every entry of a free column is 0.
    case free
    /// A user variable: unrestricted in sign, never in the objective.
    case external
    /// The slack of an inequality, >= 0.
    case slack
    /// An error variable of a non-required constraint, >= 0, in its level's objective.
    case error
    /// The marker of a required equality: always 0, never enters the basis.
    case dummy
    /// The artificial variable of a required constraint being added (phase one), >= 0.
    case artificial

    /// Sign-restricted (>= 0): a row with such a basic variable must keep a constant >= 0.
    var isRestricted: Bool { self == .slack || self == .error || self == .artificial }
    /// May enter the basis in an optimisation pivot.
    var isPivotable: Bool { self == .slack || self == .error }
}
