import BenchPlatform

/// The errors of the threads; the first one added is the one reported.
typealias Failures = Locked<[DriverError]>

extension Locked where Value == [DriverError] {
    convenience init() { self.init([]) }

    func add(_ error: DriverError) { withLock { $0.append(error) } }

    var first: DriverError? { withLock { $0.first } }
}
