import BenchResults

/// JSON paths as they appear in error messages: `layout.sections[1].justify`.
///
/// The root is the empty string; keys are joined with `.`, array elements as `[i]`. A key that
/// is not a plain identifier (letters, digits, `_`, `-`, not starting with a digit) is written
/// as `["odd key"]` so the path stays unambiguous.
package enum JSONPath {
    package static func appending(_ path: String, key: String) -> String {
        if isPlain(key) { return path.isEmpty ? key : path + "." + key }
        return path + "[" + JSONValue.quoted(key) + "]"
    }

    package static func appending(_ path: String, index: Int) -> String {
        path + "[\(index)]"
    }

    /// `inner`, a path relative to the value at `path`, made absolute: `joining("a[2]", "b.c")`
    /// is `a[2].b.c`.
    package static func joining(_ path: String, _ inner: String) -> String {
        if path.isEmpty { return inner }
        if inner.isEmpty { return path }
        return inner.hasPrefix("[") ? path + inner : path + "." + inner
    }

    private static func isPlain(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else {
            return false
        }
        return key.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
        }
    }
}
