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
        #expect(try RunMetadata.decode(json) == metadata)
        print(json)
    }

    @Test func gitOutsideAWorkTree() {
        let source = RunMetadata.gitSource(directory: "/")
        #expect(source.commit == "unknown" && source.dirty == nil)
    }
}
