#if os(Linux)
extension CPUPinning {
    /// The command prefix that runs a command on `core` alone (`taskset -c CORE`), or nil when
    /// taskset (util-linux) is not on PATH.
    package static func commandPrefix(core: Int) -> [String]? {
        findOnPath("taskset").map { [$0, "-c", String(core)] }
    }

    /// Whether `commandPrefix(core:)` pins here.
    package static var isAvailable: Bool { findOnPath("taskset") != nil }
}
#endif
