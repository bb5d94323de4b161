import Foundation
import RelativeViewCore
import RelativeViewImport
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

    /// A document of about 3 MiB, three times the reader's buffer, whose every kind of token
    /// falls across a buffer boundary somewhere: read from a file and from memory, the same.
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
            let fromFile = try TreeImporter().importTree(contentsOf: path) { read, total in
                reports.append(read)
                totals.insert(total)
            }
            let fromMemory = try TreeImporter().importTree(bytes, format: .json)
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

    @Test func aStringLongerThanTheBufferImports() throws {
        let long = String(repeating: "ab\\n", count: 1_000_000)  // 4 MB of string
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/long.json"
            try #"{"long": "\#(long)", "\#(long)": 1}"#.write(toFile: path, atomically: true, encoding: .utf8)
            let tree = try TreeImporter().importTree(contentsOf: path)
            #expect(outline(tree) == "object(string,number)")
            let second = Array(tree.children(of: tree.roots[0]))[1]
            #expect(tree.attribute(.key, of: second) == String(repeating: "ab\n", count: 1_000_000))
        }
    }

    /// An error 2 MiB into a file is placed at its line and column, counted over the whole
    /// file, not the buffer it was found in.
    @Test(arguments: ["tru", "\"a\tb\"", "01", "\"\\q\""])
    func anErrorFarIntoAFileHasItsLineAndColumn(bad: String) throws {
        let line = "[1, 2, 3, \"abc\"],\n"
        let lines = (2 << 20) / line.utf8.count
        let text = "[\n" + String(repeating: line, count: lines) + "  " + bad + "\n]"
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/bad.json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: ImportError.self) { try TreeImporter().importTree(contentsOf: path) }
            let fromMemory = try #require(throws: ImportError.self) { try TreeImporter().importTree(Array(text.utf8), format: .json, path: path) }
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
        let anchors = tree.descendants(of: tree.roots[0]).filter { TypeRegistry.shared.name(of: tree.type(of: $0)) == "a" }
        #expect(anchors.count == 3)
        #expect(anchors.map { tree.attribute(.id, of: $0) } == ["x", nil, nil])
        #expect(anchors.map { tree.attribute(.className, of: $0) } == ["b c", "&", nil])
        #expect(anchors.map { tree.tag(of: $0) } == [3, 0, 0])
        #expect(tree.recursiveDescription(of: tree.roots[0]).contains(#"id = "x"; class = "b c""#))
    }
}
