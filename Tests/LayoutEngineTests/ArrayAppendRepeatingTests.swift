import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

/// `appendRepeating` against the standard library's `append(contentsOf: repeatElement(…))`, which
/// it replaces in the constraint solver: on seeded random starting arrays (grown by earlier
/// appends and reserves, empty or not, their buffer shared or not), the same elements, the same
/// capacity after and a new buffer exactly when the standard library makes one, so the engine's
/// allocations stay as they were; and no bytes beyond that buffer (jemalloc's per-thread counter),
/// at most what the standard library's version allocates (unoptimized, it also allocates
/// temporaries of its own while it walks the `Repeated`).
@Suite struct ArrayAppendRepeatingTests {
    /// One starting array and one append, replayed from its seed so that both ways start alike.
    struct Case {
        let seed: UInt64

        /// The array before the append, and whether a second reference shares its buffer.
        func start() -> (array: [Double], shared: Bool, value: Double, count: Int) {
            var random = SeededRandom(seed: seed)
            var array: [Double] = []
            for _ in 0..<random.int(0...4) {
                if random.chance(0.3) { array.reserveCapacity(random.int(0...300)) }
                array.append(contentsOf: repeatElement(Double(random.int(0...9)), count: random.int(0...200)))
            }
            let count = random.chance(0.1) ? 0 : random.int(1...400)
            return (array, random.chance(0.3), Double(random.int(0...9)), count)
        }
    }

    struct Outcome: Equatable {
        var elements: [Double], capacity: Int, newBuffer: Bool
    }

    static func run(_ test: Case, _ append: (inout [Double], Double, Int) -> Void) -> (Outcome, bytes: UInt64?) {
        var (array, shared, value, count) = test.start()
        let other = shared ? array : []
        let before = array.withUnsafeBufferPointer { $0.baseAddress }
        let allocated = ThreadAllocatedBytes()
        let bytesBefore = allocated?.read()
        append(&array, value, count)
        let bytes = allocated.map { $0.read() - bytesBefore! }
        let after = array.withUnsafeBufferPointer { $0.baseAddress }
        withExtendedLifetime(other) {}
        return (Outcome(elements: array, capacity: array.capacity, newBuffer: before != after), bytes)
    }

    @Test func allocatesAsTheStandardLibraryDoes() {
        for seed in UInt64(0)..<400 {
            let test = Case(seed: seed)
            let expected = Self.run(test) { $0.append(contentsOf: repeatElement($1, count: $2)) }
            let actual = Self.run(test) { $0.appendRepeating($1, count: $2) }
            #expect(actual.0 == expected.0, "seed \(seed): \(test.start().count) elements appended")
            if let bytes = actual.bytes, let standard = expected.bytes {
                #expect(actual.0.newBuffer || bytes == 0, "seed \(seed): \(bytes) bytes allocated without a new buffer")
                #expect(bytes <= standard, "seed \(seed): \(bytes) bytes allocated, the standard library \(standard)")
            }
        }
    }
}
