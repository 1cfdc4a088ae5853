import Foundation

/// Flat arrays of plain values coded as their bytes (`Data`, base64 in JSON). This is how a
/// resolved scenario's items travel from `layout-bench run` to its child processes: parent and
/// child are the same executable on the same machine (one byte order, one layout), and a million
/// items cost one copy instead of a million numbers printed and parsed again. Not a file format.
enum RawArrayCoding {
    static func data<T: BitwiseCopyable>(_ array: [T]) -> Data {
        array.withUnsafeBytes { Data($0) }
    }

    static func array<T: BitwiseCopyable>(_ data: Data, of type: T.Type, codingPath: [any CodingKey]) throws -> [T] {
        let stride = MemoryLayout<T>.stride
        guard data.count % stride == 0 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: "\(data.count) bytes are not a whole number of \(T.self) values"))
        }
        let count = data.count / stride
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = data.copyBytes(to: UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Booleans as one byte each, any non-zero byte true (a `Bool` must never hold another bit pattern).
    static func data(_ flags: [Bool]) -> Data {
        Data(flags.map { $0 ? 1 : 0 })
    }

    static func flags(_ data: Data) -> [Bool] {
        data.map { $0 != 0 }
    }
}
