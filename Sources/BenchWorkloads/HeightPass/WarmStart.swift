import BenchPlatform
import LayoutEngine

/// The warm tables one mode's operations start from, each built once for the group: `warm`, a
/// table after one full pass at the first width (where `warm-pass`, `scroll-pass`, the batches
/// and `width-change` start), and `rotated`, one that has then been through a pass at the rotated
/// width (where `width-return` starts).
///
/// Every operation of a mode, timed and verified, used to build its own warm table before each
/// trace — six full passes over every row per mode, and more for each restart of a batch trace
/// — where one pass gives the same table. A start hands out copies (`UnsharedCopying`: storage
/// of their own, of the same capacity, so no copy-on-write lands in a timed run and the copy
/// reallocates where the original would), then reads every row of the model they share and one
/// byte of every cache line of its texts, as the pass that built the table read them last: so a
/// run starts with the table where that pass left it in the caches, as when it built its own.
final class WarmStart<Cache: HeightCache & UnsharedCopying> {
    private let makeCold: () -> HeightTable<Cache>
    private let rotatedWidth: Double
    private var warm: HeightTable<Cache>?
    private var rotated: HeightTable<Cache>?

    /// `makeCold` makes a cold table at the first width (new template cells, an empty cache).
    init(rotatedWidth: Double, makeCold: @escaping () -> HeightTable<Cache>) {
        self.makeCold = makeCold
        self.rotatedWidth = rotatedWidth
    }

    /// A copy of the table after one full pass at the first width, its counters at zero.
    func warmCopy() -> HeightTable<Cache> {
        Self.copy(of: warmTable())
    }

    /// A copy of the warm table after a further full pass at the rotated width, counters at zero.
    func rotatedCopy() -> HeightTable<Cache> {
        if rotated == nil {
            var table = warmTable().unsharedCopy()
            table.setWidth(rotatedWidth)
            _ = table.fullPass()
            table.resetCounters()
            rotated = table
        }
        return Self.copy(of: rotated!)
    }

    private func warmTable() -> HeightTable<Cache> {
        if let warm { return warm }
        var table = makeCold()
        _ = table.fullPass()
        table.resetCounters()
        warm = table
        return table
    }

    private static func copy(of start: HeightTable<Cache>) -> HeightTable<Cache> {
        let copy = start.unsharedCopy()
        var read = 0
        for section in copy.model.sections {
            for item in section {
                read &+= item.id &+ (item.knownHeight == nil ? 0 : 1)
                read &+= readLines(of: item.content.text) &+ readLines(of: item.content.detail)
            }
        }
        blackhole(read)
        return copy
    }

    /// Reads one byte of every cache line of the text's UTF-8 storage.
    private static func readLines(of text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var sum = 0
            for i in stride(from: 0, to: bytes.count, by: 64) { sum &+= Int(bytes[i]) }
            return sum
        }
    }
}
