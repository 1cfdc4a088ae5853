import Foundation

/// Fresh copies of the binaries a timed round runs: where their code sits in the caches is
/// drawn again every round.
///
/// A process runs its code from its binary's pages in the page cache. Every process of one file
/// maps the same physical pages, and the caches are indexed by physical address, so which lines
/// of a hot loop share a cache set stays fixed while the file stays cached: for a whole
/// comparison, and for a base kept in .build-commits, for every comparison against it. Whatever
/// lean such a placement gives, every pair of a comparison repeats it, and more rounds cannot
/// average it. How large it is was not settled: two comparisons of one group against each of
/// three fixed copies of one binary put its plain modes 1.1–2.7% apart between the two
/// comparisons of a copy, as far as the copies were apart, and one copy read lowest both times
/// (docs/experiments/2026-11-27-fresh-binary-copies.md).
///
/// A copy is a new file, with new pages. Both sides get a fresh copy before each round. Their
/// placement then differs from round to round: a spread between repetitions, which the pairs
/// average and the interval counts, rather than a bias. The next round's copy is made while the
/// previous one still holds its pages, so it cannot be given the same ones.
enum CodePlacement {
    /// Round `round`'s copies: each of `binaries` copied into `root/round-R/NAME/` (NAME its
    /// side or commit), then round R − 1's copies removed; returns the copies in order.
    static func copies(forRound round: Int, of binaries: [(name: String, binary: String)], under root: String) throws(DriverError) -> [String] {
        var copies: [String] = []
        for (name, binary) in binaries {
            copies.append(try freshCopy(of: binary, into: "\(root)/round-\(round)/\(name)"))
        }
        Paths.remove("\(root)/round-\(round - 1)")
        return copies
    }

    /// Copies `binary` into `folder` (made if missing), keeping its file name; returns the copy.
    static func freshCopy(of binary: String, into folder: String) throws(DriverError) -> String {
        try Paths.makeDirectory(folder)
        let copy = folder + "/" + URL(fileURLWithPath: binary).lastPathComponent
        Paths.remove(copy)
        do { try FileManager.default.copyItem(atPath: binary, toPath: copy) } catch {
            throw DriverError("\(copy): cannot copy \(binary) there (\(error.localizedDescription))")
        }
        return copy
    }
}
