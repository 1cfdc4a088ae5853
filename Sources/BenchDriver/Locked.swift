import Foundation

/// A value the threads of a driver share (the lanes of a round, the two sides of a verification
/// or a merge), read and written only under its lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The errors of the threads; the first one added is the one reported.
typealias Failures = Locked<[DriverError]>

extension Locked where Value == [DriverError] {
    convenience init() { self.init([]) }

    func add(_ error: DriverError) { withLock { $0.append(error) } }

    var first: DriverError? { withLock { $0.first } }
}
