#if os(Linux)
import Foundation

extension ExecutablePath {
    /// The target of /proc/self/exe.
    package static func current() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
#endif
