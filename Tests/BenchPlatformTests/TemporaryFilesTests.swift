import Foundation
import Testing
@testable import BenchPlatform

/// The harness's files in $TMPDIR are recognised by name and swept once their process is gone
/// (what a SIGKILLed run leaves); nothing else in the directory is touched.
@Suite struct TemporaryFilesTests {
    @Test func ownersAreReadFromTheHarnessesNamesOnly() {
        #expect(TemporaryFiles.owner(of: "layout-bench-child-4242-17.out") == 4242)
        #expect(TemporaryFiles.owner(of: "layout-bench-callgrind-4242-99") == 4242)
        #expect(TemporaryFiles.owner(of: "layout-bench-callgrind-4242") == 4242)
        #expect(TemporaryFiles.owner(of: "layout-bench-tools-4242-AbC123") == 4242)
        #expect(TemporaryFiles.owner(of: "layout-bench-progress-4242-7") == 4242)
        #expect(TemporaryFiles.owner(of: "layout-bench-other-4242") == nil)
        #expect(TemporaryFiles.owner(of: "layout-bench-child-42x") == nil)
        #expect(TemporaryFiles.owner(of: "layout-bench-child-") == nil)
        #expect(TemporaryFiles.owner(of: "TemporaryDirectory.abc") == nil)
    }

    @Test func aRunLeavesNoToolDirectoryBehind() throws {
        // Other tests of this process make tool directories at the same time, so only this one's
        // own directory is looked for afterwards.
        let path = TemporaryFiles.withToolEnvironment { environment -> String? in
            guard let directory = environment?["TMPDIR"] else { return nil }
            try? "x".write(toFile: directory + "/TemporaryDirectory.x", atomically: false, encoding: .utf8)
            return directory
        }
        #expect(path != nil)
        #expect(!FileManager.default.fileExists(atPath: path ?? "/"))
        let name = (path ?? "").split(separator: "/").last.map(String.init) ?? ""
        #expect(name.hasPrefix("layout-bench-tools-\(getpid())-"))
        #expect(!ResultsDirectory.entries(of: TemporaryFiles.directory).contains(name))
    }

    @Test func entriesOfDeadProcessesAreSwept() throws {
        let directory = TemporaryFiles.directory
        // pid 99999999 is above any pid_max: its process cannot be running.
        let dead = directory + "/layout-bench-child-99999999-\(UInt32.random(in: 0...UInt32.max)).out"
        let deadDirectory = directory + "/layout-bench-callgrind-99999999-\(UInt32.random(in: 0...UInt32.max))"
        let alive = directory + "/layout-bench-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).in"
        try "x".write(toFile: dead, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: deadDirectory + "/sub", withIntermediateDirectories: true)
        try "x".write(toFile: deadDirectory + "/sub/cg.out.1", atomically: false, encoding: .utf8)
        try "x".write(toFile: alive, atomically: false, encoding: .utf8)
        defer { unlink(alive) }
        TemporaryFiles.sweep()
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: deadDirectory))
        #expect(FileManager.default.fileExists(atPath: alive))
    }
}

/// The interrupt handler removes whole directories whose files this process does not name
/// (callgrind's dumps, a tool's TMPDIR), with system calls only.
@Suite struct SignalTreeRemovalTests {
    @Test func aRegisteredTreeIsRemovedWithEverythingInIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/TemporaryDirectory.x/deeper", withIntermediateDirectories: true)
        for index in 0..<600 {  // more entries than one getdents64 buffer holds
            try "x".write(toFile: root + "/cg.out.\(index).with-a-longer-name-to-fill-the-buffer", atomically: false, encoding: .utf8)
        }
        try "y".write(toFile: root + "/TemporaryDirectory.x/deeper/file", atomically: false, encoding: .utf8)
        #expect(symlink("/etc", root + "/link") == 0)
        SignalCleanup.register(tree: root)
        defer { SignalCleanup.unregister(tree: root) }
        root.withCString { SignalCleanup.removeTree(in: AT_FDCWD, $0, depth: 0) }
        #expect(!FileManager.default.fileExists(atPath: root))
        #expect(FileManager.default.fileExists(atPath: "/etc/hostname") || FileManager.default.fileExists(atPath: "/etc"))
    }
}
