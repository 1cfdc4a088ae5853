/// One constraint of the solver (a user constraint or an edit variable's), by the columns it added.
struct ConstraintRecord {
    /// Bumped when the slot is freed, so stale handles are refused.
    var generation: Int = 0
    var isLive = false
    /// The column that identifies the constraint in the tableau: the slack of an inequality, the
    /// plus error of a non-required equality, the dummy of a required equality.
    var marker = -1
    /// The second column (the error of a non-required inequality, the minus error of a
    /// non-required equality), or -1.
    var other = -1
    /// The objective level slot of a non-required constraint; -1 when required.
    var level = -1
    /// `1 / k` for the marker's coefficient `k` in the constraint as added: changing the
    /// constraint's constant by `d` replaces the marker `m` by `m + d * markerShift`.
    var markerShift = 0.0
    /// For an edit variable's constraint `v - value == 0`: the current value.
    var editValue = 0.0
    /// Whether this is an edit variable's constraint (not removable by handle).
    var isEdit = false
    /// The constraint as given (kept to rebuild the tableau; the array is the caller's, shared).
    var terms: [LinearTerm] = []
    var constant = 0.0
    var relation = ConstraintRelation.equal
    var priority = 1000.0
}
