import Foundation
import RelativeViewCore
@testable import RelativeViewImport
import RelativeViewFixtures
import Testing

/// The JSON reader's member names, and its streaming through a buffer smaller than the
/// document: tokens cut by the buffer's end, a string longer than the buffer, errors far in.
@Suite struct JSONStreamingTests {
    @Test func membersCarryTheirNamesDecoded() throws {
        let text = #"{"a": 1, "b\"c": [true, {"": null}], "\u00e9\t": "x", "\ud83d\ude00": 2, "\ud800": 3, "k": {}}"#
        let tree = try importing(text, as: .json)
        let root = tree.roots[0]
        #expect(tree.attribute(.key, of: root) == nil)
        let members = Array(tree.children(of: root))
        #expect(members.map { tree.attribute(.key, of: $0) } == ["a", "b\"c", "é\t", "😀", "\u{FFFD}", "k"])
        let array = members[1]
        let elements = Array(tree.children(of: array))
        #expect(elements.map { tree.attribute(.key, of: $0) } == [nil, nil])
        #expect(tree.children(of: elements[1]).map { tree.attribute(.key, of: $0) } == [""])
        let description = tree.recursiveDescription(of: root)
        #expect(description.contains(#"key = "b\"c""#), "\(description)")
        #expect(description.contains(#"key = "é\t""#), "\(description)")
    }

    /// Member names of every length around the scanner's 8- and 16-byte word reads (short
    /// names are kept as two words, not copied), names that differ only in their last byte
    /// (the builder's table of recent texts compares those words), escaped and multi-byte
    /// names: each node gets its own name back, through any buffer size.
    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it"), arguments: [1, 5, 17, 64, 1 << 20])
    func memberNamesOfEveryLengthComeBackExactly(bufferSize: Int) throws {
        var names: [String] = []
        for n in 0 ... 40 {
            names.append(String(repeating: "k", count: n))
            if n > 0 { names.append(String(repeating: "k", count: n - 1) + "j") }
            if n > 1 { names.append("é" + String(repeating: "k", count: n - 2)) }
        }
        names += names.reversed()  // each name again, after other names took the table's slots
        var text = "["
        for (k, name) in names.enumerated() {
            text += (k == 0 ? "" : ",") + #"{"\#(name)": \#(k), "e\u0301\#(name)": [], "\#(name)": {"x\#(name)": true}}"#
        }
        text += "]"
        var builder = ViewTreeBuilder()
        try JSONTreeReader(content: .skeleton).read(Array(text.utf8), path: "doc", into: &builder, bufferSize: bufferSize)
        let tree = builder.finish()
        let objects = Array(tree.children(of: tree.roots[0]))
        #expect(objects.count == names.count)
        var wrong: [String] = []
        for (object, name) in zip(objects, names) {
            let members = Array(tree.children(of: object))
            let got = members.map { tree.attribute(.key, of: $0) }
            let nested = members.count == 3 ? tree.children(of: members[2]).map { tree.attribute(.key, of: $0) } : []
            if got != [name, "e\u{0301}\(name)", name] || nested != ["x\(name)"] { wrong.append(name) }
        }
        #expect(wrong.isEmpty, "names read back wrong: \(wrong)")
    }

    /// A document of about 3 MiB, three times the reader's buffer, whose every kind of token
    /// falls across a buffer boundary somewhere: read from a file and from memory, the same.
    /// The first pass that sizes the builder reads a file of 16 MiB or more in two halves
    /// at once (the second on a thread of its own): its bound is the one counted over the
    /// same bytes in memory, give or take the one each 1 MiB chunk adds, and never below.
    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) func theBoundOfALargeFileIsCountedInTwoHalves() throws {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(17 << 20 + 64)
        while bytes.count < 17 << 20 {
            // The halves differ (the second has more brackets and commas per byte, some in
            // strings), so a half counted twice or left out shows.
            if bytes.count < 8 << 20 {
                bytes += Array(#"{"key":"value"},"#.utf8)
            } else {
                bytes += Array(#"[1,2,3,"a,b{[",[]],"#.utf8)
            }
        }
        bytes += Array("0]".utf8)
        let inMemory = bytes.withUnsafeBufferPointer(JSONTreeReader.nodeBound(of:))
        try withTemporaryDirectory { dir in
            let path = dir + "/large.json"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromFile = try _FileReader(path: path).sum(JSONTreeReader.nodeBound(of:))
            let chunks = (bytes.count >> 20) + 2
            #expect(fromFile >= inMemory && fromFile <= inMemory + chunks, "\(fromFile) against \(inMemory)")
        }
    }

    @Test func aFileLargerThanTheBufferImportsAsFromMemory() throws {
        var text = "[\n"
        var expectedNodes = 1
        var n = 0
        while text.utf8.count < 3 << 20 {
            let name = String(repeating: "k", count: n % 37) + "\\u00e9\(n)"
            text += #"{"\#(name)": [\#(n), -\#(n).5e-3, "s\#(String(repeating: "é", count: n % 23))", true, false, null]},"# + "\n"
            expectedNodes += 8
            n += 1
        }
        text += "0]"
        expectedNodes += 1
        let bytes = Array(text.utf8)
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/big.json"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            var reports: [Int] = []
            var totals: Set<Int?> = []
            let fromFile = try TreeImporter(content: .skeleton).importTree(contentsOf: path) { read, total in
                reports.append(read)
                totals.insert(total)
            }
            let fromMemory = try TreeImporter(content: .skeleton).importTree(bytes, format: .json)
            #expect(fromFile.count == expectedNodes)
            #expect(fromMemory.count == expectedNodes)
            #expect(outline(fromFile) == outline(fromMemory))
            let fileKeys = fromFile.descendants(of: fromFile.roots[0]).map { fromFile.attribute(.key, of: $0) }
            let memoryKeys = fromMemory.descendants(of: fromMemory.roots[0]).map { fromMemory.attribute(.key, of: $0) }
            let same = fileKeys == memoryKeys
            #expect(same)
            let found = fileKeys.contains(String(repeating: "k", count: 5000 % 37) + "é5000")
            #expect(found)
            // Progress: increasing, ending at the file's size, which every report gives.
            #expect(reports.count >= 3)
            #expect(reports == reports.sorted())
            #expect(reports.last == bytes.count)
            #expect(totals == [bytes.count])
        }
    }

    /// What a read makes of `bytes` through a buffer of `size` bytes: each node as its
    /// parent, type and key, or the error.
    static func read(_ bytes: [UInt8], bufferSize size: Int) -> Result<[String], ImportError> {
        var builder = ViewTreeBuilder()
        do {
            try JSONTreeReader(content: .skeleton).read(bytes, path: "doc", into: &builder, bufferSize: size)
        } catch {
            return .failure(error)
        }
        let tree = builder.finish()
        return .success((0 ..< tree.slotCount).map { slot in
            let x = tree.node(atSlot: slot)!
            return "\(tree.parent(of: x).map { "\($0.index)" } ?? "-") \(TypeRegistry.shared.name(of: tree.typeID(of: x))) \(tree.attribute(.key, of: x) ?? "·")"
        })
    }

    /// With a buffer of a few bytes every token is cut somewhere (escapes, UTF-8 sequences,
    /// numbers, literals, member names): the same trees and the same errors, positions
    /// included, as through a buffer that holds the whole document.
    @Test(arguments: [1, 2, 3, 5, 8, 13])
    func tokensCutByTheBufferAreReadWhole(bufferSize: Int) {
        var rng = SplitMix64(seed: 23)
        let extras = [#"{"\u00e9\n\ud83d\ude00": "é😀\"", "e": -0.5e+10, "t": [true, false, null], "": {}}"#, "[1e5, 0, -0, 12.25E-3]"]
        for n in 0 ..< 80 {
            var bytes = n < extras.count ? Array(extras[n].utf8) : SampleDocuments.json(values: 1 + n % 40, seed: UInt64(n))
            if n % 3 == 2 {
                // A damaged copy: the same error wherever the buffer ends.
                let at = Int.random(in: 0 ..< bytes.count, using: &rng)
                bytes[at] = Array("\"\\{}[],:0e-tu\u{1}".utf8).randomElement(using: &rng)!
            }
            let whole = Self.read(bytes, bufferSize: 1 << 20)
            let cut = Self.read(bytes, bufferSize: bufferSize)
            switch (whole, cut) {
            case (.success(let a), .success(let b)): #expect(a == b, "document \(n)")
            case (.failure(let a), .failure(let b)): #expect(a == b, "document \(n)")
            default: Issue.record("document \(n): \(whole) through a whole buffer, \(cut) through \(bufferSize) bytes")
            }
        }
    }

    @Test func aStringLongerThanTheBufferImports() throws {
        let long = String(repeating: "ab\\n", count: 1_000_000)  // 4 MB of string
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/long.json"
            try #"{"long": "\#(long)", "\#(long)": 1}"#.write(toFile: path, atomically: true, encoding: .utf8)
            let tree = try TreeImporter(content: .skeleton).importTree(contentsOf: path)
            #expect(outline(tree) == "object(string,number)")
            let second = Array(tree.children(of: tree.roots[0]))[1]
            #expect(tree.attribute(.key, of: second) == String(repeating: "ab\n", count: 1_000_000))
        }
    }

    /// An error 2 MiB into a file is placed at its line and column, counted over the whole
    /// file, not the buffer it was found in.
    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it"), arguments: ["tru", "\"a\tb\"", "01", "\"\\q\""])
    func anErrorFarIntoAFileHasItsLineAndColumn(bad: String) throws {
        let line = "[1, 2, 3, \"abc\"],\n"
        let lines = (2 << 20) / line.utf8.count
        let text = "[\n" + String(repeating: line, count: lines) + "  " + bad + "\n]"
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/bad.json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: path) }
            let fromMemory = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(Array(text.utf8), format: .json, path: path) }
            #expect(error == fromMemory)
            #expect(error.line == lines + 2, "\(error)")
            #expect(error.column.map { (3 ... 5).contains($0) } == true, "\(error)")
        }
    }
}

/// Markup keeps each element's `id` and `class`, in XML and HTML.
@Suite struct MarkupAttributeTests {
    @Test(arguments: [ImportFormat.xml, .html])
    func idAndClassAreKept(format: ImportFormat) throws {
        let text = #"<root><a id="x" class="b c" tag="3"/><a class="&amp;"/><a data-id="no" idx="no"/></root>"#
        let tree = try importing(text, as: format)
        let anchors = tree.descendants(of: tree.roots[0]).filter { TypeRegistry.shared.name(of: tree.typeID(of: $0)) == "a" }
        #expect(anchors.count == 3)
        #expect(anchors.map { tree.attribute(.id, of: $0) } == ["x", nil, nil])
        #expect(anchors.map { tree.attribute(.className, of: $0) } == ["b c", "&", nil])
        #expect(anchors.map { tree.tag(of: $0) } == [3, 0, 0])
        #expect(tree.recursiveDescription(of: tree.roots[0]).contains(#"id = "x"; class = "b c""#))
    }
}
