import Foundation
import Testing
@testable import LayoutBenchKit
import LayoutEngine

/// Rules the docs state for inputs that once went unenforced or refused what they allow (issue 34,
/// item 10): data files that end in blank lines, templated heights within the documented limits,
/// and the temporary directory a run needs.
@Suite struct InputRulesTests {
    /// A run keeps its children's input and output in TMPDIR: a missing one was a Foundation error
    /// (`NSCocoaErrorDomain Code=512 "(null)"`) once the first child started.
    @Test func theTemporaryDirectoryIsCheckedByName() throws {
        let missing = "/nonexistent-layout-bench-\(UUID().uuidString)"
        #expect(throws: OutputError.self) { try TemporaryDirectory.check(missing) }
        do { try TemporaryDirectory.check(missing) } catch {
            #expect(error.description.hasPrefix("TMPDIR \(missing): No such file or directory; "), "\(error)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bench-test-\(UUID().uuidString)").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do { try TemporaryDirectory.check(file) } catch {
            #expect(error.description.hasPrefix("TMPDIR \(file): not a directory; "), "\(error)")
        }
        try TemporaryDirectory.check(FileManager.default.temporaryDirectory.path)
    }
}
