/// How a constraint's expression compares with 0: `sum(terms) + constant REL 0`.
public enum ConstraintRelation: Sendable {
    case equal, lessThanOrEqual, greaterThanOrEqual
}
