import BenchStatistics
import Foundation

/// Generated text for the `text` distribution: sentences of pseudo-words built from syllables,
/// deterministic for a given generator state. Words are 1–4 syllables (2–12 letters), the first
/// word is capitalised and the text ends with a period, so the glyph mix (narrow, wide,
/// capital, punctuation) exercises `TemplateCell`'s advance table.
package enum WordGenerator {
    static let syllables: [[UInt8]] = [
        "ka", "lo", "mi", "ne", "ru", "sta", "vel", "tri", "o", "an", "wen", "dor", "fi", "qua", "le",
        "mar", "is", "ti", "zu", "pel", "gro", "ha", "in", "ber", "cho", "de", "sy", "lum", "ex", "on",
        "wa", "jo",
    ].map { Array($0.utf8) }

    /// Appends `count` words (UTF-8) to `bytes`.
    package static func appendWords(_ count: Int, to bytes: inout [UInt8], using rng: inout SplitMix64) {
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

    /// Appends `count` words of `language` (UTF-8) to `bytes`: sentences of 3-12 words from its
    /// word list, the first word of an English or Russian sentence capitalised, commas now and
    /// then, a full stop at the end of each; Chinese with no spaces and full-width punctuation
    /// (，。、); mixed: Chinese sentences with English words, numbers and symbols (★ ♥ ✓...)
    /// between them, as Chinese feeds mix them. Same generator state, same text.
    package static func appendWords(_ count: Int, language: TextLanguage, to bytes: inout [UInt8], using rng: inout SplitMix64) {
        if language == .syllables { return appendWords(count, to: &bytes, using: &rng) }
        var sentenceLeft = 0
        var previousChinese = false
        for w in 0..<count {
            let chinese = language == .chinese || (language == .mixed && rng.nextInt(in: 0...3) != 0)
            let startsSentence = sentenceLeft == 0
            if startsSentence { sentenceLeft = rng.nextInt(in: 3...12) }
            sentenceLeft -= 1
            let list: [[UInt8]]
            switch language {
            case .english: list = WordLists.english
            case .russian: list = WordLists.russian
            case .chinese: list = WordLists.chinese
            case .mixed, .syllables:
                let r = rng.nextInt(in: 0...9)
                list = chinese ? WordLists.chinese : r < 6 ? WordLists.english : r < 8 ? WordLists.symbols : []
            }
            if w > 0, !(chinese && previousChinese) { bytes.append(0x20) }
            previousChinese = chinese
            if list.isEmpty {
                // A number: 1 to 4 digits.
                for _ in 0..<rng.nextInt(in: 1...4) { bytes.append(0x30 + UInt8(rng.nextInt(in: 0...9))) }
            } else {
                let word = list[rng.nextInt(in: 0...(list.count - 1))]
                if startsSentence, !chinese { appendCapitalised(word, to: &bytes) } else { bytes.append(contentsOf: word) }
            }
            let last = w + 1 == count
            if sentenceLeft == 0 || last {
                bytes.append(contentsOf: chinese ? fullStop : [UInt8(ascii: ".")])
                sentenceLeft = 0
            } else if rng.nextInt(in: 0...7) == 0 {
                if chinese { bytes.append(contentsOf: rng.nextInt(in: 0...2) == 0 ? enumerationComma : comma) } else { bytes.append(UInt8(ascii: ",")) }
            }
        }
    }

    /// The most UTF-8 bytes one generated word of `language` takes, with the space or
    /// punctuation after it (the bound of a text of `n` words is `n` times this).
    package static func maximumBytesPerWord(_ language: TextLanguage) -> Int {
        let longest: Int
        switch language {
        case .syllables: longest = 4 * (syllables.map(\.count).max() ?? 0)
        case .english: longest = WordLists.english.map(\.count).max() ?? 0
        case .russian: longest = WordLists.russian.map(\.count).max() ?? 0
        case .chinese: longest = WordLists.chinese.map(\.count).max() ?? 0
        case .mixed: longest = max(4, ([WordLists.english, WordLists.chinese, WordLists.symbols].flatMap { $0 }.map(\.count).max() ?? 0))
        }
        return longest + 7  // a capital may widen a letter; then "，" or "。" (3 bytes) and a space
    }

    static let fullStop = Array("。".utf8), comma = Array("，".utf8), enumerationComma = Array("、".utf8)

    /// The word with its first letter upper-cased (ASCII and basic Cyrillic).
    static func appendCapitalised(_ word: [UInt8], to bytes: inout [UInt8]) {
        var scalars = String(decoding: word, as: UTF8.self).unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return }
        var upper = Character(first).uppercased()
        while let next = scalars.next() { upper.unicodeScalars.append(next) }
        bytes.append(contentsOf: upper.utf8)
    }

    /// A text of `count` words as a `String` (for tests and tools).
    package static func text(words count: Int, using rng: inout SplitMix64) -> String {
        var bytes: [UInt8] = []
        appendWords(count, to: &bytes, using: &rng)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The language of generated text (`"language"` of a `text` or `template` distribution).
package enum TextLanguage: String, CaseIterable, Hashable, Sendable, Codable {
    /// The syllable pseudo-words every scenario had before (the default: figures stay comparable).
    case syllables
    case english = "en"
    case russian = "ru"
    case chinese = "zh"
    /// Chinese with English words, numbers and symbols.
    case mixed
}

/// The generated texts of all items, in one contiguous UTF-8 buffer (no object per item):
/// item `i` is `bytes[offsets[i] ..< offsets[i + 1]]`, global item order as in `LayoutData`.
public struct ItemTexts: Hashable, Sendable {
    @usableFromInline package private(set) var bytes: [UInt8] = []
    @usableFromInline package private(set) var offsets: [Int] = [0]

    package init() {}

    // Inlinable, in a public type (docs/architecture.md, "Public for the optimizer"): the timed
    // operations of cell-measure and offsets read texts across the module boundary, where a call
    // with its retain and release would land in every measure.
    @inlinable
    package var count: Int { offsets.count - 1 }

    /// The UTF-8 text of item `index` (a slice: no copy).
    @inlinable
    package subscript(index: Int) -> ArraySlice<UInt8> { bytes[offsets[index]..<offsets[index + 1]] }

    package func string(at index: Int) -> String { String(decoding: self[index], as: UTF8.self) }

    /// Appends an item with `words` generated words.
    package mutating func appendGenerated(words: Int, using rng: inout SplitMix64) {
        WordGenerator.appendWords(words, to: &bytes, using: &rng)
        offsets.append(bytes.count)
    }

    /// Appends an item with `words` generated words of `language`.
    package mutating func appendGenerated(words: Int, language: TextLanguage, using rng: inout SplitMix64) {
        WordGenerator.appendWords(words, language: language, to: &bytes, using: &rng)
        offsets.append(bytes.count)
    }

    /// Appends an item with the given UTF-8 text (explicit data).
    package mutating func append(_ text: ArraySlice<UInt8>) {
        bytes.append(contentsOf: text)
        offsets.append(bytes.count)
    }

    /// Appends an item with no text (items that do not use the `text` distribution).
    package mutating func appendEmpty() { offsets.append(bytes.count) }

    package mutating func reserveCapacity(items: Int, bytes byteCount: Int) {
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
