import Foundation

/// What a harness's `list --json` says the drivers need: its scenarios and their sweeps, in its
/// order. A harness of another commit may list more fields, or lines before the JSON: the
/// listing starts at its first `{`, and a scenario without a name is left out.
struct HarnessListing: Decodable, Equatable {
    struct Scenario: Decodable, Equatable {
        var name: String?
        var items: [CarriedJSON]?
    }

    var scenarios: [Scenario]?

    /// The scenarios and their item counts, from the output of `list --json`; nil when it holds
    /// no listing.
    static func entries(_ output: String) -> [(name: String, items: [Int])]? {
        guard let start = output.firstIndex(of: "{"),
              let listing = try? JSONDecoder().decode(HarnessListing.self, from: Data(output[start...].utf8)) else { return nil }
        return (listing.scenarios ?? []).compactMap { scenario in
            scenario.name.map { ($0, (scenario.items ?? []).compactMap { $0.numberValue.map { Int($0) } }) }
        }
    }

    /// `harness`'s listing (nil when `list --json` fails).
    static func entries(of harness: ChildHarness) -> [(name: String, items: [Int])]? {
        let listing = ChildRun(executable: harness.binary, arguments: ["list", "--json"], directory: harness.directory).run(log: nil)
        return listing.status == 0 ? entries(listing.output) : nil
    }

    /// The scenarios both listings hold, in the head's order, and those only one holds (the
    /// head's, then the base's). With a listing missing, nothing is left out.
    static func common(base: [(name: String, items: [Int])]?, head: [(name: String, items: [Int])]?)
        -> (names: [String], leftOut: [String]) {
        guard let base, let head else { return ([], []) }
        let baseNames = Set(base.map(\.name)), headNames = Set(head.map(\.name))
        let common = head.map(\.name).filter { baseNames.contains($0) }
        let leftOut = head.map(\.name).filter { !baseNames.contains($0) } + base.map(\.name).filter { !headNames.contains($0) }
        return (common, leftOut)
    }
}
