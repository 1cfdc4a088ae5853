#if canImport(Darwin)
extension ExecutablePath {
    /// `_NSGetExecutablePath` (dyld(3)): its size first, then the path.
    package static func current() -> String? {
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var bytes = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&bytes, &size) == 0 else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
