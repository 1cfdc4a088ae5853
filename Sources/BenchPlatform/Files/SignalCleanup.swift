import CInterrupt

/// Temporary paths to remove if the process is interrupted (SIGINT, SIGTERM, SIGHUP): staging
/// directories and the files in them, temporary files of atomic writes and child processes;
/// and the child processes to end with it (a measuring child, valgrind).
///
/// The handler only calls `unlink`, `rmdir`, `signal` and `raise` (async-signal-safe) on C
/// strings prepared beforehand, files first, then directories, and then re-raises the signal with its default action, so the process ends as the
/// signal intends (status 130 for SIGINT in a shell). Slots are fixed, so registering allocates
/// only the path's copy and never moves what the handler reads.
package enum SignalCleanup {
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
    package static func register(_ paths: [String]) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        installHandlers()
        for path in paths {
            guard let slot = (0..<capacity).first(where: { slots[$0] == nil }) else { return }
            slots[slot] = strdup(path)
        }
    }

    /// Directories removed with everything in them on interruption (callgrind's dump directory,
    /// a tool's private TMPDIR, whose files this process does not name). The handler walks them
    /// with system calls on buffers allocated beforehand, never in the handler
    /// (`SignalCleanup+Linux.swift`: `getdents64`; Darwin has no async-signal-safe way to list a
    /// directory, and `SignalCleanup+Darwin.swift` says so: `canRemoveTrees` is false).
    nonisolated(unsafe) static let trees: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let trees = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        trees.initialize(repeating: nil, count: capacity)
        return trees
    }()
    /// Registers a directory to remove, contents and all, on interruption.
    package static func register(tree path: String) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        installHandlers()
        if let slot = (0..<capacity).first(where: { trees[$0] == nil }) { trees[slot] = strdup(path) }
    }

    package static func unregister(tree path: String) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        for slot in 0..<capacity {
            guard let held = trees[slot], strcmp(held, path) == 0 else { continue }
            trees[slot] = nil
            free(held)
            break
        }
    }

    /// Starts a child with `start` (which returns its process id) and registers it, so that an
    /// interruption either ends it or finds it never started. Without this, a thread of a
    /// driver's lane could start the next group's child while the handler of another thread was
    /// waiting for the children it had sent SIGTERM, and that child outlived the driver. The
    /// handler first marks the process as interrupted, then waits for the starts in flight to
    /// register their children; a start that comes after the mark throws and starts nothing.
    /// This thread holds the signals back meanwhile, so the handler never runs in the middle of
    /// a start it would wait for. Unregister the child with `unregister(child:)` once reaped.
    package static func startChild(_ start: () throws -> pid_t) throws -> pid_t {
        try deferringSignals { () throws -> pid_t in
            installHandlersOnce()
            guard lb_child_start_enter() == 0 else { throw Interrupted() }
            defer { lb_child_start_leave() }
            let pid = try start()
            register(child: pid)
            return pid
        }
    }

    /// A child was not started: the process is being interrupted.
    package struct Interrupted: Error {}

    private static func installHandlersOnce() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        installHandlers()
    }

    /// A child process to send SIGTERM if this one is interrupted, until `unregister(child:)`
    /// (`startChild` registers what it starts).
    static func register(child pid: pid_t) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        installHandlers()
        if let slot = (0..<capacity).first(where: { children[$0] == 0 }) { children[slot] = pid }
    }

    package static func unregister(child pid: pid_t) {
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
            prepareTreeRemoval()
            for signal in [SIGINT, SIGTERM, SIGHUP] { _ = Glibc_signal(signal, handler) }
        }
    }

    /// Forgets paths (they were renamed into place or removed).
    package static func unregister(_ paths: [String]) {
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
    package static func deferringSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    static let handler: @convention(c) (Int32) -> Void = { signal in
        // No child starts from now on; the starts already under way register theirs (a
        // second at most: a start stuck longer is not waited for).
        lb_interrupt_begin()
        var nap = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        for _ in 0..<1000 where lb_child_starts_in_flight() > 0 { nanosleep(&nap, nil) }
        // SIGTERM, then wait for the children (a second at most, then SIGKILL): one still running
        // (valgrind writing its last dump) would write into the directories removed below.
        for slot in 0..<SignalCleanup.capacity where SignalCleanup.children[slot] > 0 {
            kill(SignalCleanup.children[slot], SIGTERM)
        }
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        for slot in 0..<SignalCleanup.capacity where SignalCleanup.children[slot] > 0 {
            let child = SignalCleanup.children[slot]
            var status: Int32 = 0
            var ended = false
            for _ in 0..<100 where !ended {
                let result = waitpid(child, &status, WNOHANG)
                ended = result == child || (result == -1 && errno != EINTR)
                if !ended { nanosleep(&pause, nil) }
            }
            if !ended {
                kill(child, SIGKILL)
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            }
        }
        for slot in 0..<SignalCleanup.capacity {
            if let path = SignalCleanup.trees[slot] { SignalCleanup.removeTree(in: AT_FDCWD, path, depth: 0) }
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
