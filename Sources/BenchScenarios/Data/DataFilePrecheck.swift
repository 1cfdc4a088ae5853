import BenchPlatform
/// A streaming pass over a data file before it is read whole, so that a malformed file is refused
/// in bounded time and memory: a first line that cannot be the header (CSV) or an item (JSON
/// Lines) is refused as soon as it ends, a NUL byte at once, and a line longer than any row can
/// be (`ScenarioLimits.maxDataLineBytes`) once that many bytes are read. It reads the file in
/// fixed chunks and keeps nothing but the first line; only a file that passes is read whole,
/// and then every line of it is a row, so memory grows with the items.
enum DataFilePrecheck {
    static func check(_ path: String, format: DataFile.Format, layout: ScenarioLayout) throws(ScenarioError) {
        func failure(line: Int, _ message: String) -> ScenarioError {
            ScenarioError(file: path, path: "", message: message, line: line)
        }
        // O_NONBLOCK: a FIFO with no writer must not hang the open. An unreadable file, or one
        // that is not a regular file (a device never ends), is left to `readFileBytes`, whose
        // error says why.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let maxLine = ScenarioLimits.maxDataLineBytes
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var line = 1, lineLength = 0
        var firstLine: [UInt8] = []
        var firstLineDone = false
        var atStart = true
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            for index in 0..<count {
                let byte = chunk[index]
                if atStart {
                    atStart = false
                    // A UTF-8 byte-order mark is allowed before the first line.
                    if byte == 0xEF { firstLine.append(byte); continue }
                }
                if byte == 0 {
                    throw failure(line: line, "a NUL byte: a data file is text (CSV or JSON Lines)")
                }
                if byte == UInt8(ascii: "\n") {
                    if !firstLineDone {
                        firstLineDone = true
                        try checkFirstLine(firstLine, format: format, file: path, layout: layout)
                    }
                    line += 1
                    lineLength = 0
                    continue
                }
                lineLength += 1
                if lineLength > maxLine {
                    throw failure(line: line, "the line is longer than \(maxLine) bytes, more than any row can be")
                }
                if !firstLineDone { firstLine.append(byte) }
            }
        }
        if !firstLineDone && !firstLine.isEmpty { try checkFirstLine(firstLine, format: format, file: path, layout: layout) }
    }

    /// The header of a CSV (`section,w,h` first), or the start of an item object in JSON Lines.
    /// A first line that is neither is read by the format's own reader, whose error names the
    /// column and what was expected. Blank first lines are left to the full reader.
    private static func checkFirstLine(
        _ bytes: [UInt8], format: DataFile.Format, file: String, layout: ScenarioLayout
    ) throws(ScenarioError) {
        var text = bytes
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        while let last = text.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") { text.removeLast() }
        let trimmed = text.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if trimmed.isEmpty { return }
        let plausible: Bool
        switch format {
        case .csv:
            let header = Array(DataFileCSV.requiredHeader.utf8)
            plausible = text == header || text.starts(with: header + [UInt8(ascii: ",")])
        case .jsonLines:
            plausible = trimmed.first == UInt8(ascii: "{")
        }
        if plausible { return }
        let line = text + [UInt8(ascii: "\n")]
        switch format {
        case .csv: _ = try DataFileCSV.read(line, from: 0, file: file, layout: layout, limit: 1)
        case .jsonLines: _ = try DataFileJSONLines.read(line, from: 0, file: file, layout: layout, limit: 1)
        }
        // The reader accepted what the quick test did not (a quoted header cell): let it read the file.
    }
}
