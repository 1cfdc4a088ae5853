import CZlib

/// gzip streams through zlib: `samples.csv.gz` stays a CSV that `zcat`, pandas, R and DuckDB read
/// directly, at a tenth of the size (its rows repeat the run id, commit, scenario and mode).
package enum Gzip {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// zlib's window bits plus 16: a gzip header and trailer instead of a zlib one.
    private static let gzipWindowBits: Int32 = 15 + 16
    /// Plus 32: inflate detects gzip or zlib from the header.
    fileprivate static let detectWindowBits: Int32 = 15 + 32

    /// `bytes` compressed as one gzip member (level 6, zlib's default: most of level 9's ratio at a
    /// fraction of its time).
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(Failure) -> [UInt8] {
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
        let inflater = try Inflater()
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var consumed = 0
        var memberEnded = false
        while true {
            if memberEnded {
                guard consumed < bytes.count else { return output }
                // Another gzip member follows (as `cat a.gz b.gz` makes).
                try inflater.reset()
                memberEnded = false
            }
            guard consumed < bytes.count else { throw Failure(description: "the gzip stream is truncated") }
            let step = try bytes.withUnsafeBytes { input in
                chunk.withUnsafeMutableBytes { out in
                    Result { () throws(Failure) in try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[consumed...]), into: out) }
                }
            }.get()
            consumed += step.consumed
            guard output.count + step.produced <= limit else {
                throw Failure(description: "it would decompress to more than \(limit) bytes")
            }
            output.append(contentsOf: chunk[..<step.produced])
            memberEnded = step.memberEnded
        }
    }

    /// One inflate stream fed piece by piece: `ResultsFileReader` inflates a results file a chunk at
    /// a time, so that memory holds one chunk of the text, never all of it.
    package final class Inflater {
        /// zlib keeps a pointer back to its `z_stream`: it must not move, so it lives on the heap.
        private let stream: UnsafeMutablePointer<z_stream>

        package init() throws(Failure) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard inflateInit2_(stream, Gzip.detectWindowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                stream.deallocate()
                throw Failure(description: "zlib could not start decompressing")
            }
        }

        deinit {
            inflateEnd(stream)
            stream.deallocate()
        }

        /// Starts the next gzip member (after one ended with bytes left).
        package func reset() throws(Failure) {
            guard inflateReset(stream) == Z_OK else { throw Failure(description: "zlib could not continue") }
        }

        /// Inflates what it can of `input` into `output` (which must not be empty). Returns how much
        /// of each it used, and whether the member ended. Every return but one makes progress:
        /// `consumed == 0 && produced == 0` only when `input` is empty (zlib needs more input); the
        /// caller then reads more, or reports a truncated stream at the end of the file.
        ///
        /// zlib's statuses: `Z_OK` is progress; `Z_BUF_ERROR` means none was possible, which with
        /// room to write can only mean that the input is used up (more is needed, not an error);
        /// anything else is a corrupt stream. A `Z_OK` without progress, or a `Z_BUF_ERROR` with
        /// input left, would repeat forever if taken as "continue", so both are errors here.
        package func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(Failure)
            -> (consumed: Int, produced: Int, memberEnded: Bool)
        {
            precondition(!output.isEmpty)
            let inputCount = Swift.min(input.count, Int(UInt32.max))
            let outputCount = Swift.min(output.count, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = uInt(inputCount)
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = uInt(outputCount)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let consumed = inputCount - Int(stream.pointee.avail_in)
            let produced = outputCount - Int(stream.pointee.avail_out)
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            switch status {
            case Z_STREAM_END:
                return (consumed, produced, true)
            case Z_OK where consumed > 0 || produced > 0:
                return (consumed, produced, false)
            case Z_BUF_ERROR where inputCount == 0:
                return (0, 0, false)
            default:
                throw Failure(description: "not a valid gzip stream (zlib status \(status))")
            }
        }
    }
}
