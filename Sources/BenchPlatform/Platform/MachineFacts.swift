import Foundation

/// Facts about the machine and its load that run.json records, each read the way its OS offers
/// them (`MachineFacts+Linux.swift`: /proc and /etc/os-release; `MachineFacts+Darwin.swift`:
/// sysctl and getloadavg). A fact an OS does not offer is nil, and `PlatformCapabilities` says so.
package enum MachineFacts {
    /// uname(3): sysname, release, version, machine (POSIX, every OS alike).
    package static func uname() -> (sysname: String, release: String, version: String, machine: String) {
        var info = utsname()
        _ = Glibc_uname(&info)
        func field<T>(_ value: inout T) -> String {
            withUnsafeBytes(of: &value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return (field(&info.sysname), field(&info.release), field(&info.version), field(&info.machine))
    }

    /// The process table at one moment: every process by id, CPU times in ticks.
    package struct ProcessTable: Sendable, Equatable {
        package var ticksPerSecond: Double
        package var processes: [Int: Process]
    }

    /// One process of the process table: its command, state, parent and CPU time (user + system).
    package struct Process: Sendable, Equatable {
        package var command: String
        package var state: String
        package var parent: Int
        package var cpuTicks: Int
    }
}

/// The C library's uname under a name that `MachineFacts.uname()` does not shadow.
@inline(__always)
private func Glibc_uname(_ info: UnsafeMutablePointer<utsname>) -> Int32 { uname(info) }
