import Foundation
import Testing
@testable import BenchPlatform
@testable import BenchResults

@Suite struct RunMetadataTests {
    @Test func collectsAndEncodes() throws {
        var metadata = RunMetadata.begin(runID: "test-run", commandLine: ["layout-bench", "run", "--quick"])
        metadata.finish()
        #expect(metadata.machine.cores >= 1)
        #expect(metadata.machine.memoryBytes > 0)
        #expect(!metadata.os.name.isEmpty)
        #expect(metadata.allocator.name == "jemalloc")
        #expect(metadata.allocator.countsSwiftAllocations)
        #expect(metadata.clock.name == "CLOCK_MONOTONIC" && metadata.clock.readCostNanoseconds > 0)
        #expect(metadata.load.start.count == 3 || metadata.load.start.isEmpty)
        #expect(metadata.endTime != nil)
        #if DEBUG
        #expect(metadata.toolchain.configuration == "debug")
        #endif
        let json = try metadata.jsonText()
        #expect(json.contains("\"run_id\" : \"test-run\""))
        #expect(json.contains("\"read_cost_nanoseconds\""))
        #expect(!json.contains("\\/"))
        #expect(json.contains("\"layout_bench_version\" : \"\(LayoutBench.version)\""))
        #expect(try RunMetadata.decode(json) == metadata)
        print(json)
    }

    @Test func gitOutsideAWorkTree() {
        let source = RunMetadata.gitSource(directory: "/")
        #expect(source.commit == "unknown" && source.dirty == nil)
    }

    /// run.json asks git in the package that built the binary: the folder of the Package.swift
    /// above the file that called `LayoutBenchCLI.main`, however deep, and nil without one.
    @Test func buildPackageIsTheNearestPackageAboveTheSource() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("build-package-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/Sources/my-bench", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root + "/Package.swift", contents: Data()))
        #expect(BuildPackage.root(of: root + "/Sources/my-bench/main.swift") == root)
        #expect(BuildPackage.root(of: "/no-such-folder/Sources/main.swift") == nil)
        let source = RunMetadata.gitSource(directory: root)
        #expect(source.package == root)
    }
}
