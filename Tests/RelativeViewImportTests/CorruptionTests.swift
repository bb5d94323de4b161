import Foundation
import RelativeViewCore
import RelativeViewFixtures
import RelativeViewImport
import Testing

/// Real documents (the fuzz seed corpus in Fuzz/corpus: an SVG plot, a benchmark report, a
/// page of this package's documentation) cut short and with bytes flipped. A strict format
/// (XML, JSON) cut anywhere is an `ImportError` with the file, line and column; a flipped
/// one either still imports or gets such an error. Nothing crashes or hangs, and a tree
/// comes back only from an import that succeeded.
@Suite struct CorruptionTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus")

    static func document(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: corpus.appendingPathComponent(name)))
    }

    /// 100 prefixes at evenly spaced lengths, the whole document excluded.
    static func cuts(_ bytes: [UInt8]) -> [[UInt8]] {
        (1 ... 100).map { k in Array(bytes[..<(bytes.count * k / 101)]) }
    }

    /// 100 copies, each with 1 to 8 bytes replaced by other random bytes (seeded).
    static func flips(_ bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        return (0 ..< 100).map { _ in
            var copy = bytes
            for _ in 0 ..< Int.random(in: 1 ... 8, using: &rng) {
                let i = Int.random(in: 0 ..< copy.count, using: &rng)
                copy[i] ^= UInt8.random(in: 1 ... 255, using: &rng)
            }
            return copy
        }
    }

    /// Imports `bytes`; a failure must name `path`, a line and a column. Returns whether it failed.
    @discardableResult
    static func expectPositionedErrorOrTree(_ bytes: [UInt8], _ format: ImportFormat, mustFail: Bool, _ what: Comment) -> Bool {
        do {
            let tree = try TreeImporter(content: .skeleton).importTree(bytes, format: format, path: "corrupt")
            #expect(!mustFail, "imported \(tree.count) nodes: \(what)")
            #expect(tree.count >= 1, what)
            tree._checkInvariants()
            return false
        } catch {
            #expect(error.path == "corrupt", "\(error): \(what)")
            #expect(error.line != nil && error.column != nil, "no position in \(error): \(what)")
            return true
        }
    }

    /// The strict documents, each with the format it is read as.
    static let strict: [(String, ImportFormat)] = [
        ("xml/speedups.svg", .xml), ("xml/features.xml", .xml),
        ("json/bench-report.json", .json), ("json/features.json", .json),
    ]

    @Test(arguments: strict)
    func aStrictDocumentCutAnywhereIsAnErrorWithItsPosition(name: String, format: ImportFormat) throws {
        for (k, prefix) in Self.cuts(try Self.document(name)).enumerated() where !prefix.isEmpty {
            Self.expectPositionedErrorOrTree(prefix, format, mustFail: true, "\(name) cut at \(prefix.count) (point \(k + 1))")
        }
    }

    @Test(arguments: strict)
    func aStrictDocumentWithFlippedBytesImportsOrIsAnErrorWithItsPosition(name: String, format: ImportFormat) throws {
        var failed = 0
        for (k, copy) in Self.flips(try Self.document(name), seed: 12).enumerated() {
            if Self.expectPositionedErrorOrTree(copy, format, mustFail: false, "\(name), flip set \(k)") { failed += 1 }
        }
        // Most flips break a strict document; a flip inside text may not.
        #expect(failed >= 30, "\(name): only \(failed) of 100 damaged copies failed")
    }

    @Test(arguments: ["html/live-index.html", "html/messy.html"])
    func htmlCutOrFlippedImportsLeniently(name: String) throws {
        // HTML is read as browsers read it: a cut or damaged page still imports; what must
        // hold is that it never crashes and a tree that comes back is sound.
        let bytes = try Self.document(name)
        for copy in Self.cuts(bytes) + Self.flips(bytes, seed: 14) where !copy.isEmpty {
            do {
                let tree = try TreeImporter(content: .skeleton).importTree(copy, format: .html, path: "corrupt")
                tree._checkInvariants()
                #expect(tree.count >= 1)
            } catch {
                #expect(error.path == "corrupt", "\(error)")
            }
        }
    }

    @Test func aCutFileNamesTheFile() throws {
        try withTemporaryDirectory { (dir) throws in
            let bytes = try Self.document("json/bench-report.json")
            let path = dir + "/cut.json"
            try Data(bytes[..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: path) }
            #expect(error.path == path)
            #expect(error.line != nil && error.column != nil)
            #expect(error.description.hasPrefix(path + ":"))
        }
    }
}
