/// `coefficient * variable`, one term of a constraint's linear expression.
public struct LinearTerm: Sendable {
    public var variable: SolverVariable
    public var coefficient: Double

    public init(_ variable: SolverVariable, _ coefficient: Double) {
        self.variable = variable
        self.coefficient = coefficient
    }
}
