/// The tableau's storage: growing it, columns and rows in and out, and the pivot.
extension ConstraintSolver {
    /// Makes room for `columns` more columns and `rows` more rows. Grows geometrically, so a
    /// solver that has seen its problem's size never grows again.
    mutating func reserve(columns: Int, rows: Int) {
        let neededColumns = columnCount + max(0, columns - freeColumns.count)
        if neededColumns > columnCapacity {
            growColumns(to: max(neededColumns, columnCapacity * 2, 16))
        }
        if rowCount + rows > rowCapacity {
            let newCapacity = max(rowCount + rows, rowCapacity * 2, 8)
            coefficients.appendRepeating(0, count: (newCapacity - rowCapacity) * columnCapacity)
            constants.appendRepeating(0, count: newCapacity - rowCapacity)
            rowBasic.appendRepeating(-1, count: newCapacity - rowCapacity)
            rowCapacity = newCapacity
        }
    }

    /// Re-lays the row-major matrices with a wider stride.
    private mutating func growColumns(to newCapacity: Int) {
        let old = columnCapacity
        func restride(_ matrix: [Double], rows: Int) -> [Double] {
            var result = [Double](repeating: 0, count: rows * newCapacity)
            for r in 0..<rows {
                for j in 0..<old { result[r * newCapacity + j] = matrix[r * old + j] }
            }
            return result
        }
        coefficients = restride(coefficients, rows: rowCapacity)
        objective = restride(objective, rows: levelCapacity)
        artificialRow.appendRepeating(0, count: newCapacity - old)
        columnKind.appendRepeating(.free, count: newCapacity - old)
        columnRow.appendRepeating(-1, count: newCapacity - old)
        scratchColumns.appendRepeating(0, count: newCapacity - old)
        freeColumns.reserveCapacity(newCapacity)
        columnCapacity = newCapacity
    }

    /// A zero column of `kind`, non-basic. Call `reserve` first.
    mutating func allocateColumn(_ kind: ColumnKind) -> Int {
        let column: Int
        if let reused = freeColumns.popLast() {
            column = reused
        } else {
            column = columnCount
            columnCount += 1
        }
        columnKind[column] = kind
        columnRow[column] = -1
        return column
    }

    /// Returns a non-basic column to the free list, zeroing what is left of it (round-off). A
    /// column still basic (only round-off can leave one so) takes its row with it.
    mutating func releaseColumn(_ column: Int) {
        if columnRow[column] >= 0 { deleteRow(columnRow[column]) }
        let stride = columnCapacity
        for r in 0..<rowCount { coefficients[r * stride + column] = 0 }
        for slot in 0..<levelCapacity { objective[slot * stride + column] = 0 }
        artificialRow[column] = 0
        columnKind[column] = .free
        freeColumns.append(column)
    }

    /// Drops row `r` (its basic column becomes non-basic); the last row moves into its place.
    mutating func deleteRow(_ r: Int) {
        let stride = columnCapacity
        columnRow[rowBasic[r]] = -1
        let last = rowCount - 1
        if r != last {
            for j in 0..<columnCount { coefficients[r * stride + j] = coefficients[last * stride + j] }
            constants[r] = constants[last]
            rowBasic[r] = rowBasic[last]
            columnRow[rowBasic[r]] = r
        }
        for j in 0..<columnCount { coefficients[last * stride + j] = 0 }
        constants[last] = 0
        rowBasic[last] = -1
        rowCount = last
    }

    /// Exchanges row `r`'s basic column for `entering` (a column with a non-zero entry in it).
    mutating func pivot(row r: Int, entering: Int) {
        let leaving = rowBasic[r]
        columnRow[leaving] = -1
        // Row r as an equation `0 = constant + sum(a * x) - leaving`.
        coefficients[r * columnCapacity + leaving] = -1
        solve(row: r, for: entering)
    }

    /// Row `r` holds the equation `0 = constants[r] + sum(a * x)` (no basic column yet). Solves it
    /// for `column` and substitutes the result into every other row and the objective rows.
    mutating func solve(row r: Int, for column: Int) {
        let stride = columnCapacity
        let used = columnCount
        let epsilon = Self.epsilon
        var nonZero = 0
        let pivotConstant: Double
        do {
            let base = r * stride
            let inverse = -1 / coefficients[base + column]
            coefficients[base + column] = 0
            constants[r] *= inverse
            pivotConstant = constants[r]
            coefficients.withUnsafeMutableBufferPointer { c in
                scratchColumns.withUnsafeMutableBufferPointer { nz in
                    for j in 0..<used {
                        let v = c[base + j]
                        if v != 0 {
                            let scaled = v * inverse
                            if abs(scaled) < epsilon {
                                c[base + j] = 0
                            } else {
                                c[base + j] = scaled
                                nz[nonZero] = j
                                nonZero += 1
                            }
                        }
                    }
                }
            }
            rowBasic[r] = column
            columnRow[column] = r
        }
        let rows = rowCount
        let count = nonZero
        coefficients.withUnsafeMutableBufferPointer { c in
            constants.withUnsafeMutableBufferPointer { k in
                scratchColumns.withUnsafeBufferPointer { nz in
                    let base = r * stride
                    for i in 0..<rows where i != r {
                        let rowBase = i * stride
                        let factor = c[rowBase + column]
                        if factor == 0 { continue }
                        c[rowBase + column] = 0
                        for n in 0..<count {
                            let j = nz[n]
                            let v = c[rowBase + j] + factor * c[base + j]
                            c[rowBase + j] = abs(v) < epsilon ? 0 : v
                        }
                        k[i] += factor * pivotConstant
                    }
                }
            }
        }
        // The objective rows (their constants are not kept: only reduced costs matter).
        let pivotBase = r * stride
        for position in 0..<levelOrder.count {
            let slot = levelOrder[position]
            let base = slot * stride
            let factor = objective[base + column]
            if factor == 0 { continue }
            objective[base + column] = 0
            objective.withUnsafeMutableBufferPointer { t in
                coefficients.withUnsafeBufferPointer { c in
                    scratchColumns.withUnsafeBufferPointer { nz in
                        for n in 0..<count {
                            let j = nz[n]
                            let v = t[base + j] + factor * c[pivotBase + j]
                            t[base + j] = abs(v) < epsilon ? 0 : v
                        }
                    }
                }
            }
        }
        if artificialActive {
            let factor = artificialRow[column]
            if factor != 0 {
                artificialRow[column] = 0
                scratchColumns.withUnsafeBufferPointer { nz in
                    for n in 0..<count {
                        let j = nz[n]
                        let v = artificialRow[j] + factor * coefficients[pivotBase + j]
                        artificialRow[j] = abs(v) < epsilon ? 0 : v
                    }
                }
                artificialConstant += factor * pivotConstant
            }
        }
    }
}
