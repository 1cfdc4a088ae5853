#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary paths to remove if the process is interrupted (SIGINT, SIGTERM, SIGHUP): staging
/// directories and the files in them, temporary files of atomic writes and child processes;
/// and the child processes to end with it (a measuring child, valgrind).
///
/// The handler only calls `unlink`, `rmdir`, `signal` and `raise` (async-signal-safe) on C
/// strings prepared beforehand, files first, then directories, and then re-raises the signal with its default action, so the process ends as the
/// signal intends (status 130 for SIGINT in a shell). Slots are fixed, so registering allocates
/// only the path's copy and never moves what the handler reads.
public enum SignalCleanup {
    static let capacity = 64
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    /// Process ids of running children (0: free slot).
    nonisolated(unsafe) static let children: UnsafeMutablePointer<pid_t> = {
        let children = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        children.initialize(repeating: 0, count: capacity)
        return children
    }()
    nonisolated(unsafe) static var installed = false
    nonisolated(unsafe) static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// Registers paths to remove on interruption; installs the handlers on first use.
    public static func register(_ paths: [String]) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        installHandlers()
        for path in paths {
            guard let slot = (0..<capacity).first(where: { slots[$0] == nil }) else { return }
            slots[slot] = strdup(path)
        }
    }

    /// A child process to send SIGTERM if this one is interrupted, until `unregister(child:)`.
    public static func register(child pid: pid_t) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        installHandlers()
        if let slot = (0..<capacity).first(where: { children[$0] == 0 }) { children[slot] = pid }
    }

    public static func unregister(child pid: pid_t) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        for slot in 0..<capacity where children[slot] == pid { children[slot] = 0 }
    }

    /// Whether `path` would be removed on interruption (tests).
    static func isRegistered(_ path: String) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return (0..<capacity).contains { slot in slots[slot].map { strcmp($0, path) == 0 } ?? false }
    }

    private static func installHandlers() {
        if !installed {
            installed = true
            for signal in [SIGINT, SIGTERM, SIGHUP] { _ = Glibc_signal(signal, handler) }
        }
    }

    /// Forgets paths (they were renamed into place or removed).
    public static func unregister(_ paths: [String]) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        for path in paths {
            for slot in 0..<capacity {
                guard let held = slots[slot], strcmp(held, path) == 0 else { continue }
                slots[slot] = nil
                free(held)
                break
            }
        }
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back, for steps that must not be cut in
    /// two (renaming a set of files into place, exchanging a results directory): a signal that
    /// arrives meanwhile is delivered when `body` returns, and its handler then cleans up what is
    /// still registered and ends the process as usual.
    public static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    static let handler: @convention(c) (Int32) -> Void = { signal in
        for slot in 0..<SignalCleanup.capacity where SignalCleanup.children[slot] > 0 {
            kill(SignalCleanup.children[slot], SIGTERM)
        }
        // Files first, then the (now empty) directories, whatever the slot order.
        for slot in 0..<SignalCleanup.capacity {
            if let path = SignalCleanup.slots[slot] { unlink(path) }
        }
        for slot in 0..<SignalCleanup.capacity {
            if let path = SignalCleanup.slots[slot] { rmdir(path) }
        }
        _ = Glibc_signal(signal, SIG_DFL)
        raise(signal)
    }
}

@inline(__always)
private func Glibc_signal(_ number: Int32, _ action: (@convention(c) (Int32) -> Void)?) -> (@convention(c) (Int32) -> Void)? {
    signal(number, action)
}
