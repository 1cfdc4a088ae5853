import BenchStatistics
import Foundation
import LayoutEngine

/// Generated text for the `text` distribution: sentences of pseudo-words built from syllables,
/// deterministic for a given generator state. Words are 1–4 syllables (2–12 letters), the first
/// word is capitalised and the text ends with a period, so the glyph mix (narrow, wide,
/// capital, punctuation) exercises `TemplateCell`'s advance table.
public enum WordGenerator {
    static let syllables: [[UInt8]] = [
        "ka", "lo", "mi", "ne", "ru", "sta", "vel", "tri", "o", "an", "wen", "dor", "fi", "qua", "le",
        "mar", "is", "ti", "zu", "pel", "gro", "ha", "in", "ber", "cho", "de", "sy", "lum", "ex", "on",
        "wa", "jo",
    ].map { Array($0.utf8) }

    /// Appends `count` words (UTF-8) to `bytes`.
    public static func appendWords(_ count: Int, to bytes: inout [UInt8], using rng: inout SplitMix64) {
        for w in 0..<count {
            if w > 0 { bytes.append(0x20) }
            let parts = rng.nextInt(in: 1...4)
            for p in 0..<parts {
                let syllable = syllables[rng.nextInt(in: 0...(syllables.count - 1))]
                if w == 0 && p == 0 {
                    bytes.append(syllable[0] &- 0x20)  // capital letter
                    bytes.append(contentsOf: syllable.dropFirst())
                } else {
                    bytes.append(contentsOf: syllable)
                }
            }
            // Now and then a comma, as in real copy.
            if w + 1 < count, rng.nextInt(in: 0...9) == 0 { bytes.append(UInt8(ascii: ",")) }
        }
        if count > 0 { bytes.append(UInt8(ascii: ".")) }
    }

    /// A text of `count` words as a `String` (for tests and tools).
    public static func text(words count: Int, using rng: inout SplitMix64) -> String {
        var bytes: [UInt8] = []
        appendWords(count, to: &bytes, using: &rng)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The generated texts of all items, in one contiguous UTF-8 buffer (no object per item):
/// item `i` is `bytes[offsets[i] ..< offsets[i + 1]]`, global item order as in `LayoutData`.
public struct ItemTexts: Hashable, Sendable {
    public private(set) var bytes: [UInt8] = []
    public private(set) var offsets: [Int] = [0]

    public init() {}

    // Inlinable: the timed operations of cell-measure and offsets read texts across the module
    // boundary, and a call with its retain and release costs them 150 instructions a measure.
    @inlinable
    public var count: Int { offsets.count - 1 }

    /// The UTF-8 text of item `index` (a slice: no copy).
    @inlinable
    public subscript(index: Int) -> ArraySlice<UInt8> { bytes[offsets[index]..<offsets[index + 1]] }

    public func string(at index: Int) -> String { String(decoding: self[index], as: UTF8.self) }

    /// Appends an item with `words` generated words.
    public mutating func appendGenerated(words: Int, using rng: inout SplitMix64) {
        WordGenerator.appendWords(words, to: &bytes, using: &rng)
        offsets.append(bytes.count)
    }

    /// Appends an item with the given UTF-8 text (explicit data).
    public mutating func append(_ text: ArraySlice<UInt8>) {
        bytes.append(contentsOf: text)
        offsets.append(bytes.count)
    }

    /// Appends an item with no text (items that do not use the `text` distribution).
    public mutating func appendEmpty() { offsets.append(bytes.count) }

    public mutating func reserveCapacity(items: Int, bytes byteCount: Int) {
        offsets.reserveCapacity(items + 1)
        bytes.reserveCapacity(byteCount)
    }
}

// MARK: Handing the texts to a child process

extension ItemTexts: Codable {
    private enum CodingKeys: String, CodingKey { case bytes, offsets }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bytes = [UInt8](try c.decode(Data.self, forKey: .bytes))
        offsets = try RawArrayCoding.array(c.decode(Data.self, forKey: .offsets), of: Int.self, codingPath: c.codingPath)
        guard offsets.first == 0, offsets.last == bytes.count, zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "text offsets out of order"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Data(bytes), forKey: .bytes)
        try c.encode(RawArrayCoding.data(offsets), forKey: .offsets)
    }
}
