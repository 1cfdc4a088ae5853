import BenchResults

/// The fast reader of explicit items: `data.sections` straight from the file's bytes into flat
/// arrays, with no JSON tree, no path strings and no allocation per item.
///
/// It accepts only what is valid: strict JSON, objects whose keys are `w`, `h`, `fullWidth`
/// (and `section` on a JSON Lines line) written without escapes, each at most once, with finite
/// sizes >= 0 and the rules of `data.sections`. On anything else it gives up (`nil`), and the
/// caller reads the same bytes again with `JSONParser` and `JSONReader`, whose error names the
/// place precisely. So a valid file is read fast, and an invalid one is explained as before.
struct ExplicitItemsScanner {
    private let buffer: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.buffer = buffer
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    /// One item object as written; nil members were left out.
    struct Item {
        var section: Int?
        var width: Double?
        var height: Double?
        var fullWidth: Bool?
    }

    enum Outcome {
        case items(ExplicitItems)
        /// Section and index of the first item beyond `ScenarioLimits.maxItems`.
        case tooMany(section: Int, index: Int)
        /// Not accepted: read it again with the strict reader for the error.
        case giveUp
    }

    /// Reads the `data.sections` array in `range` of `bytes`; `kind(s)` is the layout kind
    /// name of section `s` ("list", "flow", "waterfall"); `expectedItems` is what to reserve.
    static func scanSections(_ bytes: [UInt8], range: Range<Int>, expectedItems: Int, kind: (Int) -> String) -> Outcome {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = ExplicitItemsScanner(buffer, range: range)
            return scanner.scanSections(expectedItems: expectedItems, kind: kind)
        }
    }

    private mutating func scanSections(expectedItems: Int, kind: (Int) -> String) -> Outcome {
        var items = ExplicitItems()
        items.reserveCapacity(Swift.min(expectedItems, ScenarioLimits.maxItems))
        guard take(UInt8(ascii: "[")) else { return .giveUp }
        var section = 0
        repeat {
            guard take(UInt8(ascii: "[")), section < ScenarioLimits.maxSections else { return .giveUp }
            let sectionKind = kind(section)
            let isFlow = sectionKind == "flow", isWaterfall = sectionKind == "waterfall"
            items.appendSection()
            var index = 0
            if !take(UInt8(ascii: "]")) {
                repeat {
                    guard let item = scanItem(allowSection: false),
                          let height = item.height,
                          !isFlow || item.width != nil,
                          isWaterfall || item.fullWidth != true
                    else { return .giveUp }
                    if items.count == ScenarioLimits.maxItems { return .tooMany(section: section, index: index) }
                    items.append(width: item.width ?? 0, height: height, spansAllColumns: item.fullWidth ?? false)
                    index += 1
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "]")) else { return .giveUp }
            }
            section += 1
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return .giveUp }
        skipWhitespace()
        guard position == end else { return .giveUp }
        return .items(items)
    }

    /// Reads one item object that must fill `range` (a JSON Lines line), or nil.
    static func scanLine(_ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Item? {
        var scanner = ExplicitItemsScanner(buffer, range: range)
        guard let item = scanner.scanItem(allowSection: true) else { return nil }
        scanner.skipWhitespace()
        return scanner.position == scanner.end ? item : nil
    }

    // MARK: Items

    /// `{"w": 80, "h": 120, "fullWidth": true}` with its keys in any order, after whitespace.
    private mutating func scanItem(allowSection: Bool) -> Item? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var item = Item()
        if take(UInt8(ascii: "}")) { return item }
        repeat {
            skipWhitespace()
            guard let key = scanKey(), take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch key {
            case .width:
                guard item.width == nil, let value = scanSize() else { return nil }
                item.width = value
            case .height:
                guard item.height == nil, let value = scanSize() else { return nil }
                item.height = value
            case .fullWidth:
                guard item.fullWidth == nil, let value = scanBool() else { return nil }
                item.fullWidth = value
            case .section:
                guard allowSection, item.section == nil,
                      let number = JSONNumberLiteral.scan(buffer, from: position, end: end), number.isInteger,
                      number.value >= 0, number.value < 1e15, isDelimiter(number.end)
                else { return nil }
                item.section = Int(number.value)
                position = number.end
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return item
    }

    private enum Key { case width, height, fullWidth, section }

    private mutating func scanKey() -> Key? {
        guard position < end, buffer[position] == UInt8(ascii: "\"") else { return nil }
        var close = position + 1
        while close < end, buffer[close] != UInt8(ascii: "\""), close - position < 12 { close += 1 }
        guard close < end, buffer[close] == UInt8(ascii: "\"") else { return nil }
        let key: Key
        switch close - position - 1 {
        case 1 where buffer[position + 1] == UInt8(ascii: "w"): key = .width
        case 1 where buffer[position + 1] == UInt8(ascii: "h"): key = .height
        case 9 where matches("fullWidth", at: position + 1): key = .fullWidth
        case 7 where matches("section", at: position + 1): key = .section
        default: return nil
        }
        position = close + 1
        skipWhitespace()
        return key
    }

    private func matches(_ word: StaticString, at offset: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= end else { return false }
        for k in 0..<count where buffer[offset + k] != word.utf8Start[k] { return false }
        return true
    }

    /// A size (`NumberBound.size`: finite, from 0 to `ScenarioLimits.maxSize`) followed by a delimiter.
    private mutating func scanSize() -> Double? {
        guard let number = JSONNumberLiteral.scan(buffer, from: position, end: end),
              number.value.isFinite, NumberBound.size.admits(number.value), isDelimiter(number.end)
        else { return nil }
        position = number.end
        return number.value
    }

    private mutating func scanBool() -> Bool? {
        if matches("true", at: position), isDelimiter(position + 4) {
            position += 4
            return true
        }
        if matches("false", at: position), isDelimiter(position + 5) {
            position += 5
            return false
        }
        return nil
    }

    // MARK: Bytes

    /// Whether a value may end before `offset`: the end, whitespace, `,`, `}` or `]`.
    private func isDelimiter(_ offset: Int) -> Bool {
        guard offset < end else { return true }
        switch buffer[offset] {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
             UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }

    private mutating func skipWhitespace() {
        while position < end {
            switch buffer[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): position += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then consumes `byte` if it comes next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < end, buffer[position] == byte else { return false }
        position += 1
        return true
    }
}
