/// What an output path given by the user (`--out`) designates, after following symbolic links:
/// the rules every writer of the harness applies before it writes anything.
///
/// - A **symbolic link** is followed (also a dangling one: the file is created where it points, as
///   a shell's `>` does); the link itself is never replaced.
/// - A **regular file** or a **missing** path is written atomically: a temporary file beside it,
///   renamed over it.
/// - A **character device** or a **FIFO** is written through, never replaced: `/dev/null` takes the
///   bytes, `/dev/full` fails with "No space left on device"; a FIFO with no reader is refused
///   rather than waited for.
/// - A **directory**, a **block device** or a **socket** is refused.
/// - A file the command **read as input** (`InputFiles`) is refused, whatever name reaches it.
struct OutputTarget {
    enum Kind: Equatable {
        case missing
        case regularFile
        case directory
        case characterDevice
        case fifo
        case other(String)
    }

    /// The path given by the user, for messages.
    var given: String
    /// The path after following symbolic links (the given one when it is not a link).
    var path: String
    var kind: Kind
    /// The existing file's status (zeroed when missing).
    var status: stat

    /// Refusals in the words that follow the option and path.
    struct Refusal: Error, Equatable {
        var reason: String
        var code: Int32 = 0
    }

    static let maxLinks = 40

    /// Resolves `given`: follows up to `maxLinks` symbolic links and classifies what is there.
    static func resolve(_ given: String) throws(Refusal) -> OutputTarget {
        guard !given.isEmpty else { throw Refusal(reason: "expected a path") }
        var path = given
        var status = stat()
        for _ in 0...maxLinks {
            if lstat(path, &status) != 0 {
                let code = errno
                // ENOTDIR: a parent is a file; the writer names it when it tries to create the path.
                guard code == ENOENT || code == ENOTDIR else { throw Refusal(reason: "cannot use the path", code: code) }
                return OutputTarget(given: given, path: path, kind: .missing, status: stat())
            }
            guard status.st_mode & S_IFMT == S_IFLNK else {
                return OutputTarget(given: given, path: path, kind: kind(of: status), status: status)
            }
            guard let destination = readLink(path) else { throw Refusal(reason: "cannot read the symbolic link", code: errno) }
            path = destination.hasPrefix("/") ? destination : parent(of: path) + "/" + destination
        }
        throw Refusal(reason: "too many levels of symbolic links", code: ELOOP)
    }

    static func kind(of status: stat) -> Kind {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFCHR: return .characterDevice
        case S_IFIFO: return .fifo
        case S_IFBLK: return .other("a block device")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a regular file")
        }
    }

    /// Refuses what no writer may write: directories, block devices, sockets, and inputs.
    func checkWritable(asDirectory: Bool = false) throws(Refusal) {
        if kind != .missing && InputFiles.contains(status) {
            throw Refusal(reason: "is one of this command's inputs; give another path for the output")
        }
        switch kind {
        case .missing, .regularFile, .characterDevice, .fifo: return
        case .directory: throw Refusal(reason: "is a directory; give a file path")
        case .other(let what): throw Refusal(reason: "is \(what); give a file path")
        }
    }

    /// The directory part of a path ("." for a bare name, "/" for the root).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A hidden sibling name for `name`: `.<name><suffix>`, with `name` shortened (at a UTF-8
    /// character boundary) so that the whole stays within the file system's 255-byte limit.
    static func hiddenName(for name: String, suffix: String) -> String {
        let budget = 255 - 1 - suffix.utf8.count
        var kept = ""
        var bytes = 0
        for character in name.unicodeScalars {
            let size = String(character).utf8.count
            if bytes + size > budget { break }
            kept.unicodeScalars.append(character)
            bytes += size
        }
        return "." + kept + suffix
    }
}
