import CZlib

/// gzip streams through zlib: `samples.csv.gz` stays a CSV that `zcat`, pandas, R and DuckDB read
/// directly, at a tenth of the size (its rows repeat the run id, commit, scenario and mode).
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// zlib's window bits plus 16: a gzip header and trailer instead of a zlib one.
    private static let gzipWindowBits: Int32 = 15 + 16
    /// Plus 32: inflate detects gzip or zlib from the header.
    private static let detectWindowBits: Int32 = 15 + 32

    /// `bytes` compressed as one gzip member (level 6, zlib's default: most of level 9's ratio at a
    /// fraction of its time).
    static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, gzipWindowBits, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure(description: "zlib could not start compressing") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib could not compress (status \(status))") }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// The bytes of a gzip (or zlib) stream; concatenated gzip members are read one after another.
    /// Throws on a truncated or corrupt stream, or when the result would pass `limit` bytes.
    static func decompress(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, detectWindowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure(description: "zlib could not start decompressing") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(Swift.min(limit, bytes.count * 8))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var consumed = 0
        while consumed < bytes.count {
            var status: Int32 = Z_OK
            var produced = 0
            bytes.withUnsafeBufferPointer { input in
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + consumed)
                    stream.avail_in = uInt(input.count - consumed)
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    consumed = input.count - Int(stream.avail_in)
                    produced = out.count - Int(stream.avail_out)
                }
            }
            guard output.count + produced <= limit else {
                throw Failure(description: "it would decompress to more than \(limit) bytes")
            }
            output.append(contentsOf: chunk[..<produced])
            switch status {
            case Z_STREAM_END:
                // Another gzip member may follow (as `cat a.gz b.gz` makes).
                if consumed < bytes.count { guard inflateReset(&stream) == Z_OK else { throw Failure(description: "zlib could not continue") } }
                else { return output }
            case Z_OK, Z_BUF_ERROR where produced > 0:
                continue
            default:
                throw Failure(description: "not a valid gzip stream (zlib status \(status))")
            }
        }
        throw Failure(description: "the gzip stream is truncated")
    }
}
