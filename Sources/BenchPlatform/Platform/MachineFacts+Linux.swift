#if os(Linux)
import Foundation

/// The machine facts on Linux: /proc/cpuinfo, /etc/os-release, /proc/sys/kernel/randomize_va_space,
/// /proc/loadavg and /proc/<pid>/stat.
extension MachineFacts {
    /// The CPU's model name ("model name" of x86, "Model" of arm64 boards), or nil.
    package static func cpuModel() -> String? {
        guard let text = try? readTextFile("/proc/cpuinfo") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") || line.hasPrefix("Model") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// PRETTY_NAME of /etc/os-release ("Debian GNU/Linux 13 (trixie)"), or nil.
    package static func osPrettyName() -> String? {
        guard let text = try? readTextFile("/etc/os-release") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            var value = line.dropFirst("PRETTY_NAME=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }

    /// /proc/sys/kernel/randomize_va_space (0 = ASLR off), when readable.
    package static func aslr() -> String? {
        (try? readTextFile("/proc/sys/kernel/randomize_va_space"))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The 1, 5 and 15 minute load averages of /proc/loadavg, or nil.
    package static func loadAverage() -> [Double]? {
        guard let text = try? readTextFile("/proc/loadavg") else { return nil }
        let values = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return values.count == 3 ? values : nil
    }

    /// Every process of /proc: its command, state, parent and CPU time (user + system ticks of
    /// sysconf's _SC_CLK_TCK).
    package static func processTable() -> ProcessTable? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        var table: [Int: Process] = [:]
        for name in names.sorted() {
            guard let pid = Int(name), let text = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { continue }
            // The command may hold spaces and parentheses: it ends at the last ')'.
            let command = String(text[text.index(after: open)..<close])
            let rest = text[text.index(after: close)...].split(separator: " ")
            guard rest.count > 13, let parent = Int(rest[1]), let user = Int(rest[11]), let system = Int(rest[12]) else { continue }
            table[pid] = Process(command: command, state: String(rest[0]), parent: parent, cpuTicks: user + system)
        }
        return ProcessTable(ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))), processes: table)
    }
}
#endif
