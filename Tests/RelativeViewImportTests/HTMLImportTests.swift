import RelativeViewCore
import RelativeViewImport
import Testing

@Suite struct HTMLImportTests {
    @Test func htmlAsFoundInTheWild() throws {
        let text = """
            <!DOCTYPE html>
            <title>t</title>
            <P tag=3>one
            <p>two<br>three
            <ul><li>a<li tag="9">b</ul>
            <img src=x><input>
            """
        #expect(outline(try importing(text, as: .html)) == "html(head(title),body(p[3],p(br),ul(li,li[9]),img,input))")
    }

    @Test func aTruncatedDocumentIsClosedNotRejected() throws {
        let tree = try importing("<html><body><div><p>unfinished", as: .html)
        #expect(outline(tree) == "html(body(div(p)))")
    }

    @Test func aFileIsReadFromDisk() throws {
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/page.htm"
            try "<div tag=1><span>x</span></div>".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(ImportFormat.detect(path: path) == .html)
            #expect(outline(try TreeImporter(content: .skeleton).importTree(contentsOf: path)) == "html(body(div[1](span)))")
        }
    }

    /// An HTML 4 boolean attribute written without a value has its name as its value, as in
    /// libxml2's own tree and lxml's (`[checked="checked"]` finds the same elements there and
    /// here); any other attribute without one is empty.
    @Test func booleanAttributesHaveTheirNameAsTheirValue() throws {
        let tree = try TreeImporter().importTree(Array("<html><body><input checked DISABLED foo><script defer src=a></script></body></html>".utf8), format: .html)
        let body = tree.lastChild(of: tree.roots[0])!
        let input = tree.firstChild(of: body)!
        #expect(tree.attribute(named: "checked", of: input) == "checked")
        #expect(tree.attribute(named: "disabled", of: input) == "disabled")
        #expect(tree.attribute(named: "foo", of: input) == "")
        #expect(tree.attribute(named: "defer", of: tree.lastChild(of: body)!) == "defer")
    }

    /// A document whose first bytes say its encoding (a byte order mark; an XML declaration,
    /// as an XHTML file read as HTML has) is read in it, as libxml2's own HTML reader reads it,
    /// and the mark is no text; a `meta` naming another still wins, and a document that says
    /// nothing is still read as ISO-8859-1.
    static let page = "<html><body>caf\u{E9} \u{65E5}</body></html>"
    static let declared = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + page
    static let encoded: [(String, [UInt8])] = [
        ("UTF-8 with a byte order mark", [0xEF, 0xBB, 0xBF] + Array(page.utf8)),
        ("an XML declaration", Array(("<?xml version=\"1.0\"?>" + page).utf8)),
        ("UTF-16LE with a byte order mark", [0xFF, 0xFE] + page.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u & 0xFF), UInt8(u >> 8)] }),
        ("UTF-16BE with a declaration", declared.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u >> 8), UInt8(u & 0xFF)] }),
    ]

    @Test(arguments: encoded)
    func anEncodingTheFirstBytesSayIsRead(_ document: (String, [UInt8])) throws {
        let tree = try TreeImporter().importTree(document.1, format: .html)
        let body = tree.lastChild(of: tree.roots.last!)!
        #expect(tree.textContent(of: body) == "caf\u{E9} \u{65E5}", "\(document.0)")
        #expect(tree.children(of: body).count == 1, "\(document.0): a stray node (the mark as text?)")
    }

    /// Bytes the encoding the first bytes name does not have (a lone surrogate in UTF-16)
    /// are an error, not a tree cut short where libxml2 stopped converting.
    @Test func bytesTheEncodingLacksAreAnError() throws {
        func utf16LE(_ s: String) -> [UInt8] { s.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u & 0xFF), UInt8(u >> 8)] } }
        let broken = [0xFF, 0xFE] + utf16LE("<html><body><p>a</p>") + [0x00, 0xD8] + utf16LE("<b>z</b><i>y</i></body></html>")
        #expect(throws: ImportError.self) { try TreeImporter().importTree(broken, format: .html) }
    }

    @Test func aMetaStillNamesTheEncoding() throws {
        let declaredAndMeta = Array("<?xml version=\"1.0\"?><html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\"></head><body>caf".utf8) + [0xE9] + Array("</body></html>".utf8)
        let tree = try TreeImporter().importTree(declaredAndMeta, format: .html)
        #expect(tree.textContent(of: tree.lastChild(of: tree.roots.last!)!) == "caf\u{E9}")
        let saysNothing = Array("<html><body>caf".utf8) + [0xE9] + Array("</body></html>".utf8)
        let latin1 = try TreeImporter().importTree(saysNothing, format: .html)
        #expect(latin1.textContent(of: latin1.lastChild(of: latin1.roots.last!)!) == "caf\u{E9}")
    }

    /// A byte that is not UTF-8 in a document that says it is: after a `meta`, libxml2 2.9
    /// reads such a byte as ISO-8859-1 (and the rest of the document so), but where it
    /// stumbles on it reading an entity's name it copies the byte itself into the text it
    /// reports (the HTML fuzz harness's find). The tree holds the byte as ISO-8859-1 too,
    /// UTF-8 only, and its XML reads back.
    @Test func aByteThatIsNotUTF8IsReadAsLatin1() throws {
        let document = Array("<html><head><meta charset=\"utf-8\"></head><body><p>a &".utf8) + [0xB6, 0xC3, 0xB6] + Array("gt; b</p></body></html>".utf8)
        let tree = try TreeImporter().importTree(document, format: .html)
        let p = try #require(tree.firstChild(of: tree.lastChild(of: tree.roots.last!)!))
        let value = try #require(tree.firstChild(of: p).flatMap { tree.value(of: $0) })
        #expect(value == "a &\u{B6}\u{C3}\u{B6}gt; b")
        #expect(!value.contains("\u{FFFD}"))
        let xml = try tree.bytes(as: .xml)
        #expect(String(validating: xml, as: UTF8.self) != nil)
        let again = try TreeImporter().importTree(xml, format: .xml)
        #expect(again.textContent(of: again.roots[0]) == tree.textContent(of: tree.roots.last!))
    }

    /// libxml2's HTML parser decodes an attribute's references itself: a skeleton import
    /// keeps `id` and `class` as it reports them, as a whole import does.
    @Test func referencesInAttributesAreDecodedOnce() throws {
        let text = "<html><body><p id=\"a&amp;lt;b\" class=\"x&amp;amp;y\">t</p></body></html>"
        for content in ImportContent.allCases {
            let tree = try TreeImporter(content: content).importTree(Array(text.utf8), format: .html)
            let p = try #require(tree.firstChild(of: tree.lastChild(of: tree.roots.last!)!))
            #expect(tree.attribute(.id, of: p) == "a&lt;b", "\(content)")
            #expect(tree.attribute(.className, of: p) == "x&amp;y", "\(content)")
        }
    }
}
