/// How much of the exact answer a query returned: |returned ∩ exact| / |exact| (1 when the exact
/// answer is empty). Elements a heuristic adds that are not in the exact answer do not lower it;
/// `extras` counts them.
public struct QueryRecall: Hashable, Sendable {
    public var found: Int
    public var expected: Int
    public var extras: Int

    public var recall: Double { expected == 0 ? 1 : Double(found) / Double(expected) }

    public init(returned: [LayoutAttributes], exact: [LayoutAttributes]) {
        let exactIDs = Set(exact.map(\.id))
        let returnedIDs = Set(returned.map(\.id))
        found = returnedIDs.intersection(exactIDs).count
        expected = exactIDs.count
        extras = returnedIDs.subtracting(exactIDs).count
    }
}
