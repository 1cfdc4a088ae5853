#if canImport(Darwin)
/// Apple platforms have no call that binds a thread or a process to a core: `thread_policy_set`'s
/// `THREAD_AFFINITY_POLICY` is only a hint that threads share a cache, and Apple silicon ignores
/// it. So nothing is pinned, and run.json lists `cpu_pinning` as not measured.
extension CPUPinning {
    package static func commandPrefix(core: Int) -> [String]? { nil }

    package static var isAvailable: Bool { false }
}
#endif
