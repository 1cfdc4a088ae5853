import BenchPlatform

/// Reading a results file (`samples.csv.gz`, `samples.csv`, `summary.csv`, `profiles.csv.gz`) as
/// a stream of CSV records: the file is read, and inflated when its name ends in `.gz`, a chunk at
/// a time, and each record is handed to the reader that turns it into values. Memory holds one
/// chunk of text and what the values need, never the whole text (a whole suite's samples are
/// over a gigabyte of text; a gzip bomb of newlines, several).
package enum ResultsFile {
    /// The most bytes one results file may hold, decompressed: 4 GiB, about three times what a
    /// whole-suite run's samples take (the rounds `scripts/compare-commits` merges into one side
    /// sample briefly, so a side stays below that); past it a file is refused, whatever its rows.
    package static let maxBytes = 4 << 30
    /// The longest record (a line, or several when a quoted field holds line ends): 1 MiB. The
    /// harness's records are about 110 bytes; a profile's demangled function names a few KB.
    static let maxRecordBytes = 1 << 20

    /// The most bytes a run.json may hold: 64 MiB (a run's is a few KB, a merged side's more).
    static let maxMetadataBytes = 64 << 20

    /// The whole text of a (small) results file, decompressed when its name ends in `.gz`.
    package static func text(of path: String, limit: Int) throws(CompareError) -> String {
        String(decoding: try contents(of: path, limit: limit), as: UTF8.self)
    }

    /// The whole bytes of a results file, decompressed when its name ends in `.gz`.
    package static func contents(of path: String, limit: Int = maxBytes) throws(CompareError) -> [UInt8] {
        let source = try FileByteSource(path: path, limit: limit)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in Result { () throws(CompareError) in try source.read(into: buffer) } }.get()
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// `size` as a number of bytes a reader understands at a glance ("4 GiB", "1 MiB", "100 bytes").
    static func bytes(_ size: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where size >= 1 << shift && size % (1 << shift) == 0 {
            return "\(size >> shift) \(unit)"
        }
        return "\(size) bytes"
    }

    package static func kind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}

/// Where the bytes of a results file come from.
protocol ResultsByteSource {
    /// Fills the start of `buffer` (never empty); 0 at the end of the data.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CompareError) -> Int
}

/// Text already in memory (`ResultSet.parse(_:file:)`, the tests).
struct MemoryByteSource: ResultsByteSource {
    var bytes: [UInt8]
    var offset = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(CompareError) -> Int {
        let count = Swift.min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// A file on disk, plain or (named `*.gz`) gzip, with its decompressed size held to `limit`.
final class FileByteSource: ResultsByteSource {
    let path: String
    let limit: Int
    private let descriptor: Int32
    private let inflater: Gzip.Inflater?
    /// Compressed bytes read ahead of the inflater.
    private var input: UnsafeMutableRawBufferPointer
    private var inputStart = 0, inputEnd = 0
    private var endOfFile = false
    private var memberEnded = false
    /// Bytes handed out so far (decompressed).
    private(set) var total = 0

    /// Opens `path` without waiting on a FIFO (`O_NONBLOCK`), and refuses anything but a regular
    /// file, saying what it is.
    init(path: String, limit: Int = ResultsFile.maxBytes) throws(CompareError) {
        self.path = path
        self.limit = limit
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw CompareError(file: path, message: code == ENOENT ? "missing" : "cannot be opened: \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw CompareError(file: path, message: "cannot be read: \(String(cString: strerror(code)))")
        }
        if let kind = ResultsFile.kind(mode: info.st_mode) {
            close(descriptor)
            throw CompareError(file: path, message: "is \(kind), not a results file")
        }
        // Reads of a regular file never wait; the flag only mattered for the open.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        // An input of the command: no --out may replace it.
        InputFiles.record(info, path: path)
        self.descriptor = descriptor
        if path.hasSuffix(".gz") {
            do { inflater = try Gzip.Inflater() } catch {
                close(descriptor)
                throw CompareError(file: path, message: "cannot be decompressed: \(error)")
            }
            input = .allocate(byteCount: 1 << 18, alignment: 16)
        } else {
            inflater = nil
            input = .allocate(byteCount: 0, alignment: 16)
        }
    }

    deinit {
        close(descriptor)
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(CompareError) -> Int {
        let count = try inflater == nil ? readFile(into: buffer) : inflate(into: buffer)
        total += count
        guard total <= limit else {
            throw CompareError(file: path, message: inflater == nil
                ? "larger than \(ResultsFile.bytes(limit)), the most one results file may hold"
                : "decompresses to more than \(ResultsFile.bytes(limit)), the most one results file may hold (a gzip bomb?)")
        }
        return count
    }

    private func readFile(into buffer: UnsafeMutableRawBufferPointer) throws(CompareError) -> Int {
        while true {
            let count = readDescriptor(descriptor, buffer)
            if count >= 0 { return count }
            if errno != EINTR { throw CompareError(file: path, message: "cannot be read: \(String(cString: strerror(errno)))") }
        }
    }

    /// The next decompressed bytes: every pass reads compressed bytes, or inflates some, or ends.
    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws(CompareError) -> Int {
        guard let inflater else { return 0 }
        while true {
            if inputStart == inputEnd && !endOfFile {
                inputStart = 0
                inputEnd = try readFile(into: input)
                endOfFile = inputEnd == 0
            }
            if memberEnded {
                // Another gzip member may follow (as `cat a.gz b.gz` makes); else this is the end.
                guard inputStart < inputEnd else {
                    if endOfFile { return 0 }
                    continue
                }
                do { try inflater.reset() } catch { throw CompareError(file: path, message: "cannot be decompressed: \(error)") }
                memberEnded = false
            }
            guard inputStart < inputEnd || !endOfFile else {
                throw CompareError(file: path, message: "cannot be decompressed: the gzip stream is truncated")
            }
            let step: (consumed: Int, produced: Int, memberEnded: Bool)
            do {
                step = try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[inputStart..<inputEnd]), into: buffer)
            } catch {
                throw CompareError(file: path, message: "cannot be decompressed: \(error)")
            }
            inputStart += step.consumed
            memberEnded = step.memberEnded
            if step.produced > 0 { return step.produced }
        }
    }
}

/// RFC 4180 records read from a `ResultsByteSource`, one at a time, with the grammar of
/// `CSVParser` (LF or CRLF record ends, quoted fields with doubled quotes and embedded commas and
/// line ends, a last record without a line end) and two rules of results files: no blank line
/// (a record is never empty), and no record longer than `ResultsFile.maxRecordBytes`.
///
/// A record's fields point into the stream's buffer: read them before the next `next()`.
final class CSVRecordStream<Source: ResultsByteSource> {
    let file: String
    private var source: Source
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0, end = 0
    private var endOfData = false
    /// A field's bytes in the buffer (inside the quotes of a quoted field), whether it was
    /// quoted, and whether it holds doubled quotes to undo.
    private struct Field {
        var start: Int, end: Int
        var quoted: Bool, escaped: Bool
    }
    private var fields: [Field] = []
    private var recordEnd = 0
    /// The line the current record starts on (1 for the header).
    private(set) var line = 0
    private var nextLine = 1

    init(source: Source, file: String) {
        self.source = source
        self.file = file
        buffer = .allocate(byteCount: ResultsFile.maxRecordBytes + (1 << 20), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The number of fields of the current record.
    var count: Int { fields.count }

    /// Moves to the next record; false at the end of the file.
    func next() throws(CompareError) -> Bool {
        start = recordEnd
        while true {
            switch try parseRecord() {
            case .record: return true
            case .endOfData: return false
            case .needMore:
                if end - start >= ResultsFile.maxRecordBytes {
                    throw error("a record longer than \(ResultsFile.bytes(ResultsFile.maxRecordBytes)) (not a results file?)")
                }
                if start > 0 {
                    if end > start { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start) }
                    end -= start
                    start = 0
                }
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
                if count == 0 { endOfData = true }
                end += count
            }
        }
    }

    /// An error at the current record's line.
    func error(_ message: String) -> CompareError {
        CompareError(file: file, message: "line \(line): \(message)")
    }

    private enum Outcome { case record, endOfData, needMore }

    /// Parses the record at `start`: `.needMore` when it may go on past the bytes read so far.
    /// (The fields are filled in a local array and the class's state read once: each access to
    /// a class's stored property in the loop would be checked for exclusivity at run time.)
    private func parseRecord() throws(CompareError) -> Outcome {
        var fields: [Field] = []
        swap(&fields, &self.fields)
        defer { swap(&fields, &self.fields) }
        fields.removeAll(keepingCapacity: true)
        let p = UnsafeRawBufferPointer(buffer).assumingMemoryBound(to: UInt8.self)
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        let start = self.start, end = self.end, endOfData = self.endOfData, nextLine = self.nextLine
        line = nextLine
        var i = start
        if i == end { return endOfData ? .endOfData : .needMore }
        if p[i] == cr && i + 1 == end && !endOfData { return .needMore }
        if p[i] == lf || (p[i] == cr && i + 1 < end && p[i + 1] == lf) {
            throw error("a blank line (a results file has none: a truncated or padded file?)")
        }
        var linesInQuotes = 0
        func fail(_ message: String) -> CompareError {
            line = nextLine + linesInQuotes
            return error(message)
        }
        while true {
            if i < end && p[i] == quote {
                // A quoted field: to the quote that is not doubled.
                i += 1
                let contentStart = i
                var escaped = false
                while true {
                    while i < end && p[i] != quote {
                        if p[i] == lf { linesInQuotes += 1 }
                        i += 1
                    }
                    if i == end {
                        if endOfData { throw fail("unterminated quoted field") }
                        return .needMore
                    }
                    if i + 1 == end && !endOfData { return .needMore }
                    guard i + 1 < end && p[i + 1] == quote else { break }
                    escaped = true
                    i += 2
                }
                fields.append(Field(start: contentStart, end: i, quoted: true, escaped: escaped))
                i += 1
                if i < end && p[i] == cr && i + 1 == end && !endOfData { return .needMore }
                if i < end && p[i] != comma && p[i] != lf && !(p[i] == cr && i + 1 < end && p[i + 1] == lf) {
                    throw fail("text after a closing quote")
                }
                if i == end && !endOfData { return .needMore }
            } else {
                // An unquoted field: to a comma or a line end (a CR alone is text).
                let fieldStart = i
                while i < end {
                    let byte = p[i]
                    if byte == comma || byte == lf || byte == quote { break }
                    if byte == cr {
                        if i + 1 == end && !endOfData { return .needMore }
                        if i + 1 < end && p[i + 1] == lf { break }
                    }
                    i += 1
                }
                if i == end && !endOfData { return .needMore }
                if i < end && p[i] == quote { throw fail("quote inside an unquoted field") }
                fields.append(Field(start: fieldStart, end: i, quoted: false, escaped: false))
            }
            if i == end {
                recordEnd = end
                break
            }
            if p[i] == comma {
                i += 1
                continue
            }
            recordEnd = p[i] == cr ? i + 2 : i + 1
            break
        }
        self.nextLine = nextLine + 1 + linesInQuotes
        return .record
    }

    private func raw(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[fields[index].start..<fields[index].end])
    }

    /// The bytes of field `index` of the current record (doubled quotes undone).
    func withField<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws(CompareError) -> R) throws(CompareError) -> R {
        let bytes = raw(index)
        guard fields[index].escaped else { return try body(bytes) }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            unescaped.append(bytes[i])
            i += bytes[i] == UInt8(ascii: "\"") ? 2 : 1
        }
        return try unescaped.withUnsafeBytes { bytes in Result { () throws(CompareError) in try body(bytes) } }.get()
    }

    /// Field `index` as text (bytes that are not UTF-8 become U+FFFD, as `CSVParser` makes them).
    func string(_ index: Int) -> String {
        guard fields[index].escaped else { return String(decoding: raw(index), as: UTF8.self) }
        return (try? withField(index) { String(decoding: $0, as: UTF8.self) }) ?? ""
    }

    /// Whether field `index` is exactly `text`.
    func field(_ index: Int, is text: StaticString) -> Bool {
        guard !fields[index].escaped else { return string(index) == text.description }
        let bytes = raw(index)
        return bytes.count == text.utf8CodeUnitCount && (bytes.isEmpty || memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0)
    }

    /// The bytes of the current record from field `first` to field `last`, separators and quotes
    /// included: a faithful CSV encoding of those fields, so that equal bytes are equal fields.
    func rawFields(_ first: Int, through last: Int) -> UnsafeRawBufferPointer {
        let from = fields[first].start - (fields[first].quoted ? 1 : 0)
        let to = fields[last].end + (fields[last].quoted ? 1 : 0)
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[from..<to])
    }

    /// The fields of the current record as strings.
    var strings: [String] { (0..<count).map(string) }
}

/// `read(2)` (the name is taken inside the sources).
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
