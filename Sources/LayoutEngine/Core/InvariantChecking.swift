/// A type whose stored representation has invariants a reader cannot see from its interface
/// (prefix sums, node counts, summaries, checkpoints), checked in one shape: each type describes
/// its first broken invariant in `invariantViolation()`, written beside it in
/// `Type+Invariants.swift`, and calls `_checkInvariants()` at its mutation points.
///
/// `_checkInvariants()` does the work only when `LAYOUT_INTERNAL_CHECKS` is defined: in debug
/// builds (Package.swift defines it there) and so in the tests, never in a release build, whose
/// timings must not include O(n) checks. A release build can opt in with
/// `-Xswiftc -DLAYOUT_INTERNAL_CHECKS`.
public protocol InvariantChecking {
    /// The first broken invariant, described in words, or nil. O(size of the value).
    func invariantViolation() -> String?
}

extension InvariantChecking {
    /// Whether `_checkInvariants()` checks anything in this build.
    public static var checksInvariants: Bool {
        #if LAYOUT_INTERNAL_CHECKS
        return true
        #else
        return false
        #endif
    }

    /// Stops the process with the broken invariant when internal checks are compiled in; does
    /// nothing otherwise.
    @inline(__always)
    public func _checkInvariants(file: StaticString = #fileID, line: UInt = #line) {
        #if LAYOUT_INTERNAL_CHECKS
        if let violation = invariantViolation() {
            preconditionFailure("\(Self.self) invariant broken: \(violation)", file: file, line: line)
        }
        #endif
    }
}
