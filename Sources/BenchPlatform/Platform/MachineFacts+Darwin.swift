#if canImport(Darwin)
import Foundation

/// The machine facts on Apple platforms: sysctl(3) for the CPU model and the OS version,
/// getloadavg(3) for the load. Darwin has no system-wide ASLR switch to read, and no process table
/// this layer reads (`processTable()` is nil: compare-commits records no `load.before` there).
extension MachineFacts {
    /// `machdep.cpu.brand_string` ("Apple M2", "Intel(R) Core(TM) i7-…"), or nil.
    package static func cpuModel() -> String? { sysctlString("machdep.cpu.brand_string") }

    /// "macOS 14.5" (or iOS, from `kern.osproductversion`), or nil.
    package static func osPrettyName() -> String? {
        #if os(macOS)
        let name = "macOS"
        #else
        let name = "iOS"
        #endif
        return sysctlString("kern.osproductversion").map { "\(name) \($0)" }
    }

    /// nil: Darwin randomises every position-independent executable and has no setting to read.
    package static func aslr() -> String? { nil }

    /// The 1, 5 and 15 minute load averages (getloadavg(3), the `vm.loadavg` sysctl), or nil.
    package static func loadAverage() -> [Double]? {
        var values = [Double](repeating: 0, count: 3)
        return getloadavg(&values, 3) == 3 ? values : nil
    }

    /// nil: not read on Darwin (see above).
    package static func processTable() -> ProcessTable? { nil }

    /// A string sysctl by name (sysctlbyname(3): its size first, then its bytes), or nil.
    static func sysctlString(_ name: String) -> String? {
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
#endif
