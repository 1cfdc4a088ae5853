/// The files this process has read as input (scenario and data files, results), by device and
/// inode, so that an output never replaces one of them: `export base --out base/summary.csv` or
/// `dump s.json --out s.json` is refused instead of destroying what the command read. Identity is
/// the file's, not its name's, so a second name (a hard or symbolic link, `./`, `..`) is caught.
package enum InputFiles {
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The names each input was read by: an identity counts only while one of them still leads
    /// to it (an input deleted since, whose inode the system gave to a new file, is no input).
    nonisolated(unsafe) private static var identities: [Identity: Set<String>] = [:]
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    static func identity(_ status: stat) -> Identity {
        Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Records the file `status` describes (from `fstat` of a descriptor opened for reading), read as `path`.
    package static func record(_ status: stat, path: String) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        identities[identity(status), default: []].insert(path)
    }

    /// Records the file at `path` (following links), if it exists.
    package static func record(path: String) {
        var status = stat()
        if stat(path, &status) == 0 { record(status, path: path) }
    }

    /// Whether the file `status` describes was read as input (and is still that file).
    static func contains(_ status: stat) -> Bool {
        pthread_mutex_lock(lock)
        let paths = identities[identity(status)] ?? []
        pthread_mutex_unlock(lock)
        return paths.contains { path in
            var current = stat()
            return statPath(path, &current) == 0 && identity(current) == identity(status)
        }
    }

    /// Forgets every recorded input (tests).
    static func reset() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        identities = [:]
    }
}

/// stat(2) under a name that the `stat` type does not shadow.
private func statPath(_ path: String, _ status: inout stat) -> Int32 { stat(path, &status) }
