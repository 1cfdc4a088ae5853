import Testing
import PropertyBased

/// `propertyCheck` for a body that throws: an error fails the case (and shrinks like any failure).
/// PropertyBased 2.0.1 runs the body under `try?` and counts only recorded issues, so an error
/// thrown straight from a `propertyCheck` body passes silently.
func checkProperty<Input>(
    count: Int, input: Generator<Input, some SendableSequenceType>, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (Input) throws -> Void
) async {
    await propertyCheck(count: count, input: input, perform: { value in
        do { try body(value) } catch { Issue.record(error, "thrown", sourceLocation: sourceLocation) }
    }, sourceLocation: sourceLocation)
}

/// `checkProperty` with two inputs.
func checkProperty<First, Second>(
    count: Int, input first: Generator<First, some SendableSequenceType>, _ second: Generator<Second, some SendableSequenceType>,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: (First, Second) throws -> Void
) async {
    await checkProperty(count: count, input: zip(first, second), sourceLocation: sourceLocation) { try body($0.0, $0.1) }
}
