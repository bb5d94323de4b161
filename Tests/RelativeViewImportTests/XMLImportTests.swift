import Foundation
import RelativeViewCore
import RelativeViewImport
import Testing

@Suite struct XMLImportTests {
    @Test func elementsBecomeNodesWithTheirNamesAndTags() throws {
        let tree = try importing(#"<a tag="1"><b tag=" 7 "/><c><d tag="-3">text</d><!-- x --><?pi y?></c><b tag="x"/></a>"#, as: .xml)
        #expect(outline(tree) == "a[1](b[7],c(d[-3]),b)")
        #expect(tree.count == 5)
    }

    @Test func theTreeComesWithAFreshIndex() throws {
        let tree = try importing("<a><b><c/></b><d/></a>", as: .xml)
        let root = tree.roots[0]
        let c = Array(tree.descendants(of: root))[1]
        #expect(tree.isAncestor(root, of: c))
        #expect(tree.depth(of: c) == 2)
    }

    @Test func prefixedNamesKeepTheirPrefix() throws {
        let tree = try importing(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="urn:x"><x:rect tag="2"/><rect/></svg>"#, as: .xml)
        #expect(outline(tree) == "svg(x:rect[2],rect)")
    }

    @Test func anInternalDTDWithEntitiesIsRead() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE list [
              <!ELEMENT list (item*)>
              <!ENTITY who "world">
            ]>
            <list><item>hello &who;</item><item tag="4"/></list>
            """
        #expect(outline(try importing(text, as: .xml)) == "list(item,item[4])")
    }

    @Test func groupingByImportedTypeNames() throws {
        let tree = try importing("<r><x/><y><x/></y><x/></r>", as: .xml)
        let x = TypeRegistry.shared.typeID(named: "x")
        let groups = tree.group(.descendants, of: tree.roots[0], keyingTypes: [x: "x"])
        #expect(groups["x"]?.count == 3)
    }

    @Test(arguments: [
        ("<a><b></a>", 1, "mismatch"),
        ("<a>\n<b>\n", 2, "ends inside <b> (2 element(s) still open)"),
        ("<a></a><b/>", 1, "Extra content"),
        ("", 1, "empty"),
        ("<a x='1' x='2'/>", 1, "redefined"),
    ] as [(String, Int?, String)])
    func malformedXMLIsAnErrorWithItsPosition(text: String, line: Int?, words: String) throws {
        let error = try #require(importError(text, as: .xml, path: "bad.xml"))
        #expect(error.path == "bad.xml")
        #expect(error.line == line)
        if line != nil { #expect(error.column != nil) }
        #expect(error.message.lowercased().contains(words.lowercased()), "\(error)")
        #expect(error.description.hasPrefix("bad.xml:"))
    }

    @Test func anEncodingLibxml2CannotReadIsAnErrorWithItsPosition() throws {
        // Found by fuzz-xml (Fuzz/corpus/xml/regression-utf7-no-element.xml): libxml2 gives up
        // on UTF-7 with an error that is not fatal, the document counted as well-formed, and
        // the import failed with "no element" and no position.
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/xml/regression-utf7-no-element.xml").path
        let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: path) }
        #expect(error.path == path)
        #expect(error.line != nil && error.column != nil, "\(error)")
    }

    @Test func aTruncatedFileNamesTheFileLineAndColumn() throws {
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/truncated.xml"
            try "<root>\n  <item tag=\"1\">\n    <sub/>\n".write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(contentsOf: path) }
            #expect(error.path == path)
            // libxml2 reports the end of data at the last line with content.
            #expect(error.line == 3)
            #expect(error.column != nil)
        }
    }

    @Test func documentsLargerThanOneChunkStream() throws {
        // 200,000 elements: several 64 KiB chunks.
        let text = "<r>" + String(repeating: "<e tag=\"5\"><f/></e>", count: 100_000) + "</r>"
        let tree = try importing(text, as: .xml)
        #expect(tree.count == 200_001)
        #expect(tree.group(.descendants, of: tree.roots[0], byTags: [5])[5]?.count == 100_000)
    }

    @Test func nestingFarBeyond2048LevelsImports() throws {
        // libxml2 (2.9.14 in Debian 12) refuses nesting deeper than 256 levels (its
        // xmlParserMaxDepth) unless the parser is given XML_PARSE_HUGE, as MarkupTreeReader does.
        let depth = 100_000
        let text = String(repeating: "<d>", count: depth) + String(repeating: "</d>", count: depth)
        let tree = try importing(text, as: .xml)
        #expect(tree.count == depth)
        let deepest = try #require(tree.node(atSlot: depth - 1))
        #expect(tree.depth(of: deepest) == depth - 1)
    }

    @Test func nestingOf2000LevelsImports() throws {
        let depth = 2_000
        let text = String(repeating: "<d>", count: depth) + String(repeating: "</d>", count: depth)
        let tree = try importing(text, as: .xml)
        let deepest = try #require(Array(tree.descendants(of: tree.roots[0])).last)
        #expect(tree.depth(of: deepest) == depth - 1)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/packages/freedesktop.org.xml")))
    func aRealDocumentWithAnInternalDTD() throws {
        // FoundationXML's XMLParser crashes on this one; libxml2 reads it.
        let path = "/usr/share/mime/packages/freedesktop.org.xml"
        let tree = try TreeImporter(content: .skeleton).importTree(contentsOf: path)
        #expect(tree.roots.count == 1)
        #expect(TypeRegistry.shared.name(of: tree.typeID(of: tree.roots[0])) == "mime-info")
        let mimeType = TypeRegistry.shared.typeID(named: "mime-type")
        let types = tree.group(.descendants, of: tree.roots[0], keyingTypes: [mimeType: "mime-type"])
        #expect((types["mime-type"]?.count ?? 0) > 500)
    }
}
