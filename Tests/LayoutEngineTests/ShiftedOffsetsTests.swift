import Testing
@testable import LayoutEngine
@testable import LayoutTestSupport

@Suite struct ShiftedOffsetsTests {
    @Test func randomShiftsMatchAPlainArray() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<60 {
            let count = random.int(0...9000)
            var plain = (0..<count).map { _ in random.double(0...1000).rounded() }
            var shifted = ShiftedOffsets(plain)
            for _ in 0..<30 {
                switch random.int(0...5) {
                case 0, 1:
                    let count = plain.count
                    let start = random.int(0...count + 2), end = random.int(0...count + 2)
                    let range = min(start, end, count)..<min(max(start, end), count)
                    let delta = random.double(-50...50).rounded()
                    shifted.shift(range, by: delta)
                    for i in range { plain[i] += delta }
                case 2:
                    let start = random.int(0...plain.count)
                    let delta = random.double(-50...50).rounded()
                    shifted.shiftFrom(start, by: delta)
                    for i in start..<plain.count { plain[i] += delta }
                case 3:
                    let value = random.double(0...100).rounded()
                    shifted.append(value); plain.append(value)
                case 4 where !plain.isEmpty:
                    let i = random.int(0...plain.count - 1)
                    let value = random.double(0...100).rounded()
                    shifted[i] = value; plain[i] = value
                default:
                    if !plain.isEmpty {
                        let i = random.int(0...plain.count - 1)
                        shifted.removeSubrange(i..<(i + 1)); plain.remove(at: i)
                    }
                }
            }
            #expect(shifted.values == plain)
            shifted.normalize()
            #expect(shifted.values == plain)
        }
    }
}
