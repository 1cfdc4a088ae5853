/// A dense two-phase simplex for `minimise cost · y subject to rows · y = rhs, y >= 0`, with
/// Bland's rule (lowest-index entering column, ties in the ratio test to the lowest basic
/// column), which cannot cycle. Written for plainness: the whole tableau, phase one over one
/// artificial column per row. The reference of `LexicographicLPReference` only.
enum DenseSimplex {
    enum Result {
        /// The optimum and one optimal `y`.
        case optimal(Double, [Double])
        case infeasible
        case unbounded
    }

    static let epsilon = 1e-10

    static func minimise(rows: [[Double]], rhs: [Double], cost: [Double]) -> Result {
        let m = rows.count
        let n = cost.count
        if m == 0 {
            // y = 0 is feasible; unbounded iff some cost is negative.
            if cost.contains(where: { $0 < 0 }) { return .unbounded }
            return .optimal(0, Array(repeating: 0, count: n))
        }
        // Tableau: m rows of n + m columns (artificials last) and the right-hand side.
        let width = n + m
        var t = Tableau(rows: m, columns: width)
        let scale = max(1, rhs.map(abs).max() ?? 1)
        for i in 0..<m {
            let sign: Double = rhs[i] < 0 ? -1 : 1
            for j in 0..<n { t[i, j] = sign * rows[i][j] }
            t[i, n + i] = 1
            t.rhs[i] = sign * rhs[i]
            t.basis[i] = n + i
        }
        // Phase one: minimise the sum of the artificials.
        var phaseOne = Array(repeating: 0.0, count: width)
        for i in 0..<m { phaseOne[n + i] = 1 }
        guard t.run(cost: phaseOne, allowed: width) else { return .unbounded }
        var infeasibility = 0.0
        for i in 0..<m where t.basis[i] >= n { infeasibility += t.rhs[i] }
        if infeasibility > 1e-7 * scale { return .infeasible }
        // Drive the artificials out of the basis; a row where no real column can replace one is
        // redundant and dropped.
        var i = 0
        while i < t.rowCount {
            if t.basis[i] >= n {
                if let j = (0..<n).first(where: { abs(t[i, $0]) > 1e-9 }) {
                    t.pivot(row: i, column: j)
                } else {
                    t.removeRow(i)
                    continue
                }
            }
            i += 1
        }
        // Phase two over the real columns only.
        var phaseTwo = cost
        phaseTwo.append(contentsOf: repeatElement(0, count: m))
        guard t.run(cost: phaseTwo, allowed: n) else { return .unbounded }
        var y = Array(repeating: 0.0, count: n)
        for i in 0..<t.rowCount where t.basis[i] < n { y[t.basis[i]] = t.rhs[i] }
        var value = 0.0
        for j in 0..<n { value += cost[j] * y[j] }
        return .optimal(value, y)
    }

    struct Tableau {
        var rowCount: Int
        let columns: Int
        var entries: [Double]
        var rhs: [Double]
        var basis: [Int]

        init(rows: Int, columns: Int) {
            rowCount = rows
            self.columns = columns
            entries = Array(repeating: 0, count: rows * columns)
            rhs = Array(repeating: 0, count: rows)
            basis = Array(repeating: -1, count: rows)
        }

        subscript(i: Int, j: Int) -> Double {
            get { entries[i * columns + j] }
            set { entries[i * columns + j] = newValue }
        }

        mutating func removeRow(_ i: Int) {
            entries.removeSubrange(i * columns ..< (i + 1) * columns)
            rhs.remove(at: i)
            basis.remove(at: i)
            rowCount -= 1
        }

        mutating func pivot(row r: Int, column c: Int) {
            let width = columns
            let rows = rowCount
            let p = entries[r * width + c]
            entries.withUnsafeMutableBufferPointer { e in
                for j in 0..<width { e[r * width + j] /= p }
                rhs[r] /= p
                for i in 0..<rows where i != r {
                    let f = e[i * width + c]
                    if f == 0 { continue }
                    for j in 0..<width { e[i * width + j] -= f * e[r * width + j] }
                    rhs[i] -= f * rhs[r]
                }
            }
            basis[r] = c
        }

        /// Simplex iterations from the current feasible basis for `cost`, entering only columns
        /// below `allowed`. False if unbounded.
        mutating func run(cost: [Double], allowed: Int) -> Bool {
            while true {
                // Reduced costs: cost_j - sum over rows of cost(basis_i) * entry(i, j).
                // Which columns are basic, as a mask (a search of the basis per column made the
                // reference's tests spend most of their time in it, unoptimized).
                var entering = -1
                var isBasic = Array(repeating: false, count: columns)
                for i in 0..<rowCount { isBasic[basis[i]] = true }
                entries.withUnsafeBufferPointer { e in
                    for j in 0..<allowed where !isBasic[j] {
                        var reduced = cost[j]
                        for i in 0..<rowCount { reduced -= cost[basis[i]] * e[i * columns + j] }
                        if reduced < -1e-9 {
                            entering = j
                            break
                        }
                    }
                }
                if entering < 0 { return true }
                var leaving = -1
                var best = Double.infinity
                for i in 0..<rowCount where self[i, entering] > epsilon {
                    let ratio = max(0, rhs[i]) / self[i, entering]
                    if leaving < 0 || ratio < best - 1e-12 || (ratio <= best + 1e-12 && basis[i] < basis[leaving]) {
                        best = min(best, ratio)
                        leaving = i
                    }
                }
                if leaving < 0 { return false }
                pivot(row: leaving, column: entering)
            }
        }
    }
}
