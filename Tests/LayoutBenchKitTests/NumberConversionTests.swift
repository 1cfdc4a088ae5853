import Foundation
import Testing
@testable import LayoutBenchKit
import LayoutEngine

/// Numbers at and beyond every conversion that input reaches (issue 34, item 2): each is refused
/// with a clear error where it is read, or shown without a conversion that can trap. A trap here
/// ends the whole test process, as it ended the command.
@Suite struct NumberConversionTests {
    /// run.json's load averages are only shown, in the busy-machine warning of `compare`: one of
    /// 9.3e16 or more once trapped converting its hundredths to `Int`.
    @Test func anyLoadAverageIsShownWithoutTrapping() {
        var metadata = RunMetadata.begin(runID: "r", commandLine: ["layout-bench"], directory: "/")
        metadata.machine.activeCores = 2
        for load in [9.3e16, 1e17, 1e300, Double.greatestFiniteMagnitude, 2.73] {
            metadata.load.start = [load, 1, 1]
            let result = ResultSet(samplesPath: "samples.csv", series: [:], commits: [], metadata: metadata)
            let warnings = RunCompatibility.warnings(base: result, head: result)
            #expect(warnings.contains { $0.hasPrefix("base ran on a busy machine (load average ") }, "\(load): \(warnings)")
        }
        #expect(RunCompatibility.formatted(2.73) == "2.73")
        #expect(RunCompatibility.formatted(9.5) == "9.50")
        #expect(RunCompatibility.formatted(1e17) == "100000000000000000.00")
        #expect(RunCompatibility.formatted(.infinity) == "inf")
    }
}
