/// Order statistics used by `Summary` and the bootstrap.
package enum Quantile {
    /// The `p`-quantile (0...1) of ascending-sorted `values` by linear interpolation between order
    /// statistics: Hyndman & Fan type 7, the default of numpy (`method="linear"`), R and Excel's
    /// PERCENTILE.INC. With h = (n - 1)·p: x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋]). NaN when empty.
    package static func sorted(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let h = Double(values.count - 1) * min(max(p, 0), 1)
        let lower = Int(h.rounded(.down))
        let fraction = h - Double(lower)
        if lower + 1 >= values.count || fraction == 0 { return values[lower] }
        return values[lower] + fraction * (values[lower + 1] - values[lower])
    }

    /// The median of unsorted values (type 7: the mean of the two middle values for an even count).
    package static func median(_ values: [Double]) -> Double {
        sorted(values.sorted(), 0.5)
    }

    /// The median of `values[0..<count]`, reordering them (quickselect, expected O(n)).
    static func medianInPlace(_ values: inout [Double], count: Int) -> Double {
        precondition(count > 0)
        let upper = count / 2
        let upperValue = select(&values, upper, count: count)
        if count % 2 == 1 { return upperValue }
        // After selection everything before `upper` is <= values[upper]: the lower middle is their maximum.
        var lowerValue = values[0]
        for i in 1..<upper where values[i] > lowerValue { lowerValue = values[i] }
        return (lowerValue + upperValue) / 2
    }

    /// Hoare-style quickselect with median-of-three pivots: places the k-th smallest at index k.
    private static func select(_ a: inout [Double], _ k: Int, count: Int) -> Double {
        var low = 0
        var high = count - 1
        while high > low {
            let mid = low + (high - low) / 2
            if a[mid] < a[low] { a.swapAt(mid, low) }
            if a[high] < a[low] { a.swapAt(high, low) }
            if a[high] < a[mid] { a.swapAt(high, mid) }
            let pivot = a[mid]
            var i = low
            var j = high
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return a[k] }
        }
        return a[k]
    }
}
