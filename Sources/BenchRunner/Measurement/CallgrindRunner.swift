import Foundation
import BenchPlatform

package enum CallgrindError: Error, CustomStringConvertible {
    case valgrindNotFound
    case failed(status: Int32, outputTail: String)
    case duplicateLabel(String)
    case unreadableDump(path: String)

    package var description: String {
        switch self {
        case .valgrindNotFound: return "valgrind is not on PATH"
        case let .failed(status, tail): return "valgrind exited with status \(status): \(tail)"
        case let .duplicateLabel(label): return "callgrind label dumped twice: \(label)"
        case let .unreadableDump(path): return "cannot read callgrind output \(path)"
        }
    }
}

/// Runs a program under callgrind (instrumentation off at start, so only `CallgrindRegion`s count) and
/// collects its labelled dumps.
///
/// Command: `setarch <arch> -R valgrind --tool=callgrind --instr-atstart=no
/// --callgrind-out-file=<tmp>/cg.out.%p <executable> <arguments>` (`setarch -R` disables address-space
/// randomisation, which makes counts repeat exactly; without setarch the run goes ahead with ASLR).
package enum CallgrindRunner {
    /// Path of valgrind on PATH, if any.
    package static var valgrindPath: String? { findOnPath("valgrind") }
    package static var isAvailable: Bool { valgrindPath != nil }

    /// Label → instructions for every client-request dump of the run. Throws on a non-zero exit
    /// status or a label dumped twice.
    package static func run(
        executable: String, arguments: [String], environment: [String: String] = [:], input: Data? = nil
    ) throws -> [String: UInt64] {
        try labelledDumps(executable: executable, arguments: arguments, environment: environment, input: input)
            .mapValues { $0.instructions ?? 0 }
    }

    /// Label → the whole dump (with `cacheSimulation`, its `cacheCounts` too) for every
    /// client-request dump of the run.
    package static func labelledDumps(
        executable: String, arguments: [String], environment: [String: String] = [:], input: Data? = nil,
        cacheSimulation: Bool = false
    ) throws -> [String: CallgrindDump] {
        var result: [String: CallgrindDump] = [:]
        for dump in try runDumps(executable: executable, arguments: arguments, environment: environment, input: input,
                                 cacheSimulation: cacheSimulation) {
            guard let label = dump.label else { continue }
            guard result[label] == nil else { throw CallgrindError.duplicateLabel(label) }
            result[label] = dump
        }
        return result
    }

    /// The cache simulation with fixed caches (32 KiB 8-way first level, 8 MiB 16-way last level,
    /// 64-byte lines) rather than the host's, so that miss counts and the cycle estimate repeat
    /// from machine to machine like the instruction counts.
    static let cacheSimulationArguments = ["--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]

    /// Every dump file of the run (client requests and the final one), in dump order.
    /// `environment` is added to (and overrides) the current environment; `input` is the
    /// program's standard input.
    package static func runDumps(
        executable: String, arguments: [String], environment: [String: String] = [:], input: Data? = nil,
        cacheSimulation: Bool = false
    ) throws -> [CallgrindDump] {
        guard let valgrind = valgrindPath else { throw CallgrindError.valgrindNotFound }
        let fileManager = FileManager.default
        let directory = fileManager.temporaryDirectory
            .appendingPathComponent("layout-bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        // Registered before it exists: an interrupt removes it with the dumps valgrind wrote.
        SignalCleanup.register(tree: directory.path)
        defer {
            try? fileManager.removeItem(at: directory)
            SignalCleanup.unregister(tree: directory.path)
        }
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)

        let valgrindArguments = [
            // --vgdb=no: no vgdb FIFOs in $TMPDIR, which an interrupted run would leave behind.
            "--tool=callgrind", "--instr-atstart=no", "--vgdb=no",
            "--callgrind-out-file=\(directory.path)/cg.out.%p",
        ] + (cacheSimulation ? cacheSimulationArguments : []) + [executable] + arguments
        let executable: String
        let commandArguments: [String]
        if let setarch = findOnPath("setarch") {
            executable = setarch
            commandArguments = [machineArchitecture(), "-R", valgrind] + valgrindArguments
        } else {
            executable = valgrind
            commandArguments = valgrindArguments
        }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let result = try runChildProcess(executable: executable, arguments: commandArguments, environment: env, input: input)
        guard result.status == 0 else {
            throw CallgrindError.failed(status: result.status, outputTail: String(result.output.suffix(2000)))
        }
        return try collectDumps(in: directory.path)
    }

    /// Parses every `cg.out.*` file in `directory`, ordered by dump number (`<base>.<n>`; the final
    /// dump `<base>` without a number comes last).
    package static func collectDumps(in directory: String) throws -> [CallgrindDump] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("cg.out.") }
        func order(_ name: String) -> (Int, Int) {
            let parts = name.split(separator: ".")  // cg, out, pid[, n]
            return (Int(parts.count > 2 ? parts[2] : "") ?? 0, parts.count > 3 ? Int(parts[3]) ?? Int.max : Int.max)
        }
        return try names.sorted { order($0) < order($1) }.map { name in
            let path = directory + "/" + name
            guard let text = try? readTextFile(path) else { throw CallgrindError.unreadableDump(path: path) }
            return CallgrindDump.parse(text)
        }
    }

    static func machineArchitecture() -> String { MachineFacts.uname().machine }
}
