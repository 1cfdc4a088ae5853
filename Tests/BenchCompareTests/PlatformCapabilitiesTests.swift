import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults
@testable import BenchCompare

/// What a run could not measure on its OS is said, never left to degrade in silence (issue 50):
/// run.json's `capabilities` lists every capability of the platform layer as measured or not, and
/// compare names a side's unmeasured ones.
@Suite struct PlatformCapabilitiesTests {
    @Test func everyCapabilityIsListedOnceInOrder() {
        let capabilities = PlatformCapabilities.probe()
        let listed = capabilities.measured.map(\.name) + capabilities.notMeasured.map(\.name)
        #expect(listed.sorted() == PlatformCapabilities.names.sorted())
        #expect(capabilities.measured.map(\.name) == PlatformCapabilities.names.filter(capabilities.measured.map(\.name).contains))
        #expect(capabilities.measured.allSatisfy { $0.how != nil && $0.why == nil })
        #expect(capabilities.notMeasured.allSatisfy { $0.why != nil && $0.how == nil })
        #expect(capabilities.os == PlatformCapabilities.osName)
    }

    #if os(Linux)
    /// On Linux every capability is measured, but for the three that need a tool or a kernel
    /// setting this machine may lack, each absent exactly when its tool or setting is.
    @Test func onLinuxTheListIsComplete() throws {
        let capabilities = PlatformCapabilities.probe()
        let missing = Set(capabilities.notMeasured.map(\.name))
        let hugePages = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        var expected: Set<String> = []
        if findOnPath("valgrind") == nil { expected.insert("instructions") }
        if findOnPath("taskset") == nil { expected.insert("cpu_pinning") }
        if !(hugePages.contains("[always]") || hugePages.contains("[madvise]")) { expected.insert("huge_pages") }
        #expect(missing == expected)
        #expect(PlatformCapabilities.instructionsRefusal == nil)
        #expect(PeakMemory.canResetPeak && SignalCleanup.canRemoveTrees && ResultsDirectory.canExchange)
    }

    /// The facts moved into the platform layer read what they read before: this process in the
    /// process table, under its parent; its executable; the load and the CPU.
    @Test func linuxMachineFacts() throws {
        let table = try #require(MachineFacts.processTable())
        let me = try #require(table.processes[Int(getpid())])
        #expect(me.parent == Int(getppid()))
        #expect(table.ticksPerSecond > 0)
        #expect(ExecutablePath.current() == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        #expect(MachineFacts.loadAverage()?.count == 3)
        #expect(MachineFacts.cpuModel().map { !$0.isEmpty } ?? true)
        #expect(!MachineFacts.uname().machine.isEmpty)
        #expect(CPUPinning.commandPrefix(core: 1).map { $0.dropFirst() == ["-c", "1"] } ?? !CPUPinning.isAvailable)
    }
    #endif

    @Test func runJSONRecordsThem() throws {
        let metadata = RunMetadata.begin(runID: "capabilities", commandLine: ["layout-bench"], directory: "/")
        #expect(metadata.capabilities == PlatformCapabilities.probe())
        let json = try metadata.jsonText()
        #expect(json.contains("\"capabilities\" : {") && json.contains("\"not_measured\" : ["))
        #expect(try RunMetadata.decode(json) == metadata)
        // A run.json written before capabilities were recorded still reads, with none.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object["capabilities"] = nil
        let old = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try RunMetadata.decode(old).capabilities == nil)
    }

    static func result(_ capabilities: PlatformCapabilities?) -> ResultSet {
        var metadata = RunMetadata.begin(runID: "r", commandLine: ["layout-bench"], directory: "/")
        metadata.source.dirty = false
        metadata.capabilities = capabilities
        return ResultSet(samplesPath: "samples.csv", series: [:], commits: [], metadata: metadata)
    }

    @Test func compareNamesWhatASideDidNotMeasure() {
        let linux = PlatformCapabilities(os: "Linux", measured: PlatformCapabilities.names.map { .init(name: $0, how: "read") }, notMeasured: [])
        let darwin = PlatformCapabilities(os: "Darwin", measured: [.init(name: "peak_rss", how: "task_info")], notMeasured: [
            .init(name: "peak_rss_reset", why: "cannot"), .init(name: "cpu_pinning", why: "cannot"),
        ])
        let warnings = RunCompatibility.warnings(base: Self.result(linux), head: Self.result(darwin))
        #expect(warnings.contains("head ran on Darwin, which did not measure: peak_rss_reset, cpu_pinning (run.json's capabilities say why)"))
        #expect(!warnings.contains { $0.hasPrefix("base ran on") && $0.contains("did not measure") })
        for quiet in [Self.result(linux), Self.result(nil)] {
            #expect(!RunCompatibility.warnings(base: quiet, head: quiet).contains { $0.contains("did not measure") })
        }
    }
}
