import RelativeViewCore
import RelativeViewSnapshot
import Testing

/// The README's snapshot example, verbatim (ReadmeCoverageTests checks that every ```swift
/// block of the README appears in a test), in a file that imports only what the example
/// imports (the tree and the clean-up come from helpers in RoundTripTests.swift).
@Suite struct ReadmeCodeBlockTests {
    @Test func theSnapshotExample() throws {
        let tree = randomTree(nodes: 1000, seed: 5)
        defer { removeFile("/tmp/tree.rvtree") }

        try tree.writeSnapshot(to: "/tmp/tree.rvtree")                   // written beside it, then renamed over it
        let again = try ViewTree(contentsOfSnapshot: "/tmp/tree.rvtree")  // mapped (mmap) and checked; mapped: false reads it
        let fromBytes = try ViewTree(snapshot: tree.snapshot())           // [UInt8] in memory

        #expect(again.snapshot() == tree.snapshot())
        #expect(fromBytes.snapshot() == tree.snapshot())
    }
}
