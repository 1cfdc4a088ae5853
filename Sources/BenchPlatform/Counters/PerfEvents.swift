/// Whether hardware instruction counters work (`perf_event_open` with PERF_TYPE_HARDWARE /
/// PERF_COUNT_HW_INSTRUCTIONS for this thread, user space only). On the project's VMs there is no PMU
/// and the call fails with ENOENT, so the `instructions` metric comes from callgrind or is
/// `unsupported`.
package enum PerfEvents {
    package static func instructionCounterWorks() -> Bool {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        // syscall(2) is variadic and cannot be called from Swift directly; on x86-64 and AArch64 Linux a
        // variadic callee with integer arguments reads them exactly like a fixed-arity one.
        typealias Syscall = @convention(c) (Int, UnsafeRawPointer, Int32, Int32, Int32, UInt) -> Int
        guard let symbol = dlsym(nil /* RTLD_DEFAULT */, "syscall") else { return false }
        let call = unsafeBitCast(symbol, to: Syscall.self)
        #if arch(x86_64)
        let number = 298
        #else
        let number = 241
        #endif
        // struct perf_event_attr, PERF_ATTR_SIZE_VER0 = 64 bytes:
        // u32 type, u32 size, u64 config, u64 sample_period, u64 sample_type, u64 read_format, u64 flags, ...
        var attr = [UInt8](repeating: 0, count: 64)
        func put32(_ value: UInt32, at offset: Int) { withUnsafeBytes(of: value.littleEndian) { for (i, b) in $0.enumerated() { attr[offset + i] = b } } }
        func put64(_ value: UInt64, at offset: Int) { withUnsafeBytes(of: value.littleEndian) { for (i, b) in $0.enumerated() { attr[offset + i] = b } } }
        put32(0, at: 0)            // PERF_TYPE_HARDWARE
        put32(64, at: 4)           // size
        put64(1, at: 8)            // PERF_COUNT_HW_INSTRUCTIONS
        put64(1 | 1 << 5 | 1 << 6, at: 40)  // disabled, exclude_kernel, exclude_hv
        let fd = attr.withUnsafeBytes { call(number, $0.baseAddress!, 0, -1, -1, 0) }
        guard fd >= 0 else { return false }
        close(Int32(fd))
        return true
        #else
        return false
        #endif
    }
}
