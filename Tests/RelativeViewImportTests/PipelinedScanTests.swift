import CColumnMemory
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RelativeViewCore
@testable import RelativeViewImport
import RelativeViewFixtures
import Testing

/// The XML fast path with its scan on a thread of its own, writing a tape that the
/// caller's thread replays into the builder (`_PipelinedScan`), against the same scan
/// building directly: the same trees, the same errors, the same documents handed to
/// libxml2, whatever the document and however many chunks of tape it takes.
@Suite struct PipelinedScanTests {
    /// What a read of `bytes` makes: the tree's lines, or the error.
    static func read(_ bytes: [UInt8], content: ImportContent, pipelined: Bool) -> Result<[String], ImportError> {
        var builder = ViewTreeBuilder()
        do {
            try MarkupTreeReader(content: content, pipelined: pipelined).read(bytes, path: "doc", dialect: .xml, into: &builder)
            let tree = builder.finish()
            tree._checkInvariants()
            return .success(XMLFastPathTests.lines(tree))
        } catch {
            return .failure(error)
        }
    }

    static func expectAlike(_ bytes: [UInt8], content: ImportContent, _ comment: Comment? = nil) {
        let direct = read(bytes, content: content, pipelined: false)
        let piped = read(bytes, content: content, pipelined: true)
        switch (direct, piped) {
        case (.success(let a), .success(let b)):
            // The first line that differs, not the whole trees (which may be large).
            let first = a.indices.first { $0 < b.count && a[$0] != b[$0] }
            #expect(a.count == b.count && first == nil,
                    "\(comment?.description ?? ""): \(a.count) lines against \(b.count); first differing: \(first.map { "\(a[$0]) / \(b[$0])" } ?? "none")")
        case (.failure(let a), .failure(let b)): #expect(a == b, comment)
        default: Issue.record("one read failed and the other did not: \(direct) against \(piped); \(comment?.description ?? "")")
        }
    }

    /// Generated documents of every feature the fast path reads, some with a byte changed
    /// (errors, and documents the fast path gives up on part way), and some with a document
    /// type declaration (given up on at once): alike.
    @Test(arguments: ImportContent.allCases)
    func generatedDocumentsBuildAlike(content: ImportContent) {
        var rng = SplitMix64(seed: 41)
        for n in 0 ..< 200 {
            var bytes = Array(XMLFastPathTests.document(&rng, elements: 1 + n % 80).utf8)
            if n % 4 == 1 { bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = Array("<&]/\"x\u{1}".utf8).randomElement(using: &rng)! }
            if n % 9 == 2 { bytes = Array("<!DOCTYPE root>".utf8) + bytes }
            Self.expectAlike(bytes, content: content, "document \(n)")
        }
    }

    /// A document that takes many chunks of tape (more operations than a chunk holds, and
    /// more chunks than are in flight at once, so that the scan waits for the builder), with
    /// a text longer than a chunk's bytes, tags and attributes: alike, in both contents.
    @Test(arguments: ImportContent.allCases)
    func aDocumentOfManyChunksBuildsAlike(content: ImportContent) {
        var xml = "<root>"
        for k in 0 ..< 60_000 {
            xml += "<item id=\"i\(k)\" class=\"c\(k % 7)\" tag=\"\(k % 1000 - 500)\" n=\"\(k)\">t\(k) &amp; <b>x</b></item>"
            if k == 30_000 { xml += "<long>" + String(repeating: "long text ", count: 120_000) + "</long>" }
        }
        xml += "<tail tag=\"9223372036854775807\"/></root>"
        let bytes = Array(xml.utf8)
        #expect(bytes.count > 4 << 20)
        Self.expectAlike(bytes, content: content)
        // And an error near the end: after the builder replayed most of the tape.
        var broken = bytes
        broken[broken.count - 8] = UInt8(ascii: "<")
        Self.expectAlike(broken, content: content, "an error near the end")
        // And a name past ASCII near the end, which the fast path hands to libxml2 after
        // most of the tape was replayed: the builder rolled back, then libxml2's tree.
        let handedOver = Array((xml.dropLast(7) + "<caf\u{E9}/></root>").utf8)
        // (On one CPU the pipelined path does not run: the direct scan gives up.)
        let piped = MarkupTreeReader(content: content, pipelined: true).pipelinedFastPath(handedOver)
        #expect(piped.onThread == (rv_usable_processors() > 1))
        if piped.onThread { #expect(piped.gaveUpAt != nil) }
        #expect(MarkupTreeReader(content: content).fastPath(handedOver).gaveUpAt != nil)
        Self.expectAlike(handedOver, content: content, "handed over near the end")
    }

    /// Where the process may run two threads at once, the pipelined path does scan on a
    /// thread of its own (the tests above would otherwise compare the direct scan with
    /// itself), and reads what the direct scan reads; elsewhere (`taskset -c 0`) it does not
    /// run.
    @Test func theScanRunsOnAThreadOfItsOwn() {
        var rng = SplitMix64(seed: 9)
        let bytes = Array(XMLFastPathTests.document(&rng, elements: 300).utf8)
        let piped = MarkupTreeReader(content: .whole, pipelined: true).pipelinedFastPath(bytes)
        #if os(Linux)
        #expect(piped.onThread == (rv_usable_processors() > 1))
        #endif
        let direct = MarkupTreeReader(content: .whole).fastPath(bytes)
        #expect(piped.gaveUpAt == direct.gaveUpAt)
        if let a = piped.tree, let b = direct.tree { #expect(XMLFastPathTests.lines(a) == XMLFastPathTests.lines(b)) }
        #expect(direct.tree != nil, "the generated document is read by the fast path")
    }

    /// A file import large enough to scan on a thread of its own by default: the tree a
    /// direct scan makes, and progress reported as it goes, up to the file's size.
    @Test func aLargeFileImportsAlikeAndReportsProgress() throws {
        let xml = "<root>" + (0 ..< 40_000).map { "<p n=\"\($0)\">caf\u{E9} &amp; <i>\($0)</i></p>\n" }.joined() + "</root>"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pipelined-\(UUID().uuidString).xml")
        try Data(xml.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let size = xml.utf8.count
        #expect(size >= _PipelinedScan.minimumBytes)
        var reports: [Int] = []
        let tree = try TreeImporter().importTree(contentsOf: url.path, format: .xml) { read, total in
            reports.append(read)
            #expect(total == size)
        }
        var builder = ViewTreeBuilder()
        try MarkupTreeReader(content: .whole, pipelined: false).read(contentsOf: url.path, dialect: .xml, into: &builder)
        let direct = builder.finish()
        #expect(XMLFastPathTests.lines(tree) == XMLFastPathTests.lines(direct))
        #expect(reports.count > 1)
        #expect(reports == reports.sorted())
        #expect(reports.last == size)
    }
}
