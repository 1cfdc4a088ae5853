extension LayoutFrames {
    /// The one way placement code writes item frames: the four per-item arrays of a
    /// `LayoutFrames`, opened once as unsafe buffers by `withItemWriter`, so hot loops run without
    /// bounds checks, reference counting or nested closures of their own. Item tops go through
    /// `ShiftedOffsets.Writer`, so writes are correct while a shift is pending.
    @usableFromInline
    struct ItemWriter {
        @usableFromInline let minX: UnsafeMutableBufferPointer<Double>
        @usableFromInline let width: UnsafeMutableBufferPointer<Double>
        @usableFromInline let height: UnsafeMutableBufferPointer<Double>
        /// Section-relative item tops.
        @usableFromInline let minY: ShiftedOffsets.Writer

        @inlinable
        init(minX: UnsafeMutableBufferPointer<Double>, width: UnsafeMutableBufferPointer<Double>,
             height: UnsafeMutableBufferPointer<Double>, minY: ShiftedOffsets.Writer) {
            self.minX = minX
            self.width = width
            self.height = height
            self.minY = minY
        }

        /// Writes the frame of the item at global index `i` (y relative to its section).
        @inlinable @inline(__always)
        func setFrame(_ i: Int, minX x: Double, minY y: Double, width w: Double, height h: Double) {
            minX[i] = x
            minY[i] = y
            width[i] = w
            height[i] = h
        }
    }

    /// Calls `body` with a writer over the item arrays as they are (pending shifts of the item
    /// tops stay pending and are honoured by the writer).
    mutating func withItemWriter<R>(_ body: (ItemWriter) throws -> R) rethrows -> R {
        try itemMinY.withWriter { minY in
            try itemMinX.withUnsafeMutableBufferPointer { minX in
                try itemWidth.withUnsafeMutableBufferPointer { width in
                    try itemHeight.withUnsafeMutableBufferPointer { height in
                        try body(ItemWriter(minX: minX, width: width, height: height, minY: minY))
                    }
                }
            }
        }
    }

    /// Calls `body` with a writer over item arrays of `count` items with no shifts, for a layout
    /// from scratch. Storage of the right size is reused in place; otherwise new columns are created
    /// **uninitialised** (large ones on huge pages: `ItemColumn`), so a first layout writes each
    /// value once instead of zero-filling first: `body` must write every item's frame (every
    /// placement does).
    mutating func withItemWriter(resettingTo count: Int, _ body: (ItemWriter) -> Void) {
        if itemMinX.count == count, itemWidth.count == count, itemHeight.count == count {
            itemMinY.withUnshiftedStorage(count: count) { minY in
                itemMinX.withUnsafeMutableBufferPointer { minX in
                    itemWidth.withUnsafeMutableBufferPointer { width in
                        itemHeight.withUnsafeMutableBufferPointer { height in
                            body(ItemWriter(minX: minX, width: width, height: height, minY: Self.unshifted(minY)))
                        }
                    }
                }
            }
            return
        }
        itemMinX = []
        itemWidth = []
        itemHeight = []
        itemMinY = ShiftedOffsets()
        var minYValues = ItemColumn(), widthValues = ItemColumn(), heightValues = ItemColumn()
        let minXValues = ItemColumn(unsafeUninitializedCapacity: count) { minX, initializedX in
            widthValues = ItemColumn(unsafeUninitializedCapacity: count) { width, initializedWidth in
                heightValues = ItemColumn(unsafeUninitializedCapacity: count) { height, initializedHeight in
                    minYValues = ItemColumn(unsafeUninitializedCapacity: count) { minY, initializedY in
                        body(ItemWriter(minX: minX, width: width, height: height, minY: Self.unshifted(minY)))
                        initializedY = count
                    }
                    initializedHeight = count
                }
                initializedWidth = count
            }
            initializedX = count
        }
        itemMinX = minXValues
        itemWidth = widthValues
        itemHeight = heightValues
        itemMinY = ShiftedOffsets(minYValues)
    }

    private static func unshifted(_ values: UnsafeMutableBufferPointer<Double>) -> ShiftedOffsets.Writer {
        ShiftedOffsets.Writer(base: values, blockShift: UnsafeBufferPointer(start: nil, count: 0),
                              groupShift: UnsafeBufferPointer(start: nil, count: 0), hasShifts: false)
    }
}
