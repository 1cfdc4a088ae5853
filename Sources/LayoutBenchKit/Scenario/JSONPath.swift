/// JSON paths as they appear in error messages: `layout.sections[1].justify`.
///
/// The root is the empty string; keys are joined with `.`, array elements as `[i]`. A key that
/// is not a plain identifier (letters, digits, `_`, `-`, not starting with a digit) is written
/// as `["odd key"]` so the path stays unambiguous.
public enum JSONPath {
    public static func appending(_ path: String, key: String) -> String {
        if isPlain(key) { return path.isEmpty ? key : path + "." + key }
        return path + "[" + JSONValue.quoted(key) + "]"
    }

    public static func appending(_ path: String, index: Int) -> String {
        path + "[\(index)]"
    }

    /// How the path is shown: the root is `(root)`.
    public static func display(_ path: String) -> String { path.isEmpty ? "(root)" : path }

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
