import Foundation
import RelativeViewCore
@testable import RelativeViewImport
import RelativeViewFixtures
import Testing

/// The XML writer writes only what an XML parser reads back as it was: a character XML 1.0
/// cannot hold (a control character but tab, newline and carriage return; U+FFFE, U+FFFF),
/// a comment holding "--" or ending with "-", a processing instruction's "?>" or a name
/// that is not an XML name is an error naming the node, not a file no parser can read.
@Suite struct XMLExportValidityTests {
    /// The error writing `tree` as XML gives, or `nil` if it wrote.
    static func error(_ tree: ViewTree) -> String? {
        do {
            _ = try tree.bytes(as: .xml)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func charactersXMLCannotHoldAreAnErrorNamingTheNode() throws {
        for (json, character) in [(#"{"a":"x\u0001y"}"#, "U+0001"), (#"["\u001f"]"#, "U+001F"), (#"["ok\uFFFF"]"#, "U+FFFF"),
                                  (#"["\uFFFE"]"#, "U+FFFE"), (#"["\u0000 nul"]"#, "U+0000")] {
            let tree = try TreeImporter().importTree(Array(json.utf8), format: .json)
            let message = Self.error(tree)
            #expect(message?.contains(character) == true && message?.contains("node at slot") == true, "\(json): \(message ?? "written")")
            // JSON holds them: its writer writes them, escaped.
            #expect(throws: Never.self) { try tree.bytes(as: .json) }
        }
        // Their neighbours are characters: written.
        let fine = try TreeImporter().importTree(Array(#"["\uFFFD \uFF0C \uEFFF \t\n\r \u007f"]"#.utf8), format: .json)
        #expect(Self.error(fine) == nil)

        var tree = ViewTree()
        let root = tree.makeElement(named: "r", attributes: ["a": "fine", "b": "bell\u{7}"])
        #expect(Self.error(tree)?.contains("attribute \"b\" holds U+0007") == true)
        tree.setAttribute(named: "b", "tab\tnewline\n", of: root)
        #expect(Self.error(tree) == nil)
        tree.setAttribute(named: "1b", "x", of: root)
        #expect(Self.error(tree)?.contains("\"1b\", which is not an XML attribute name") == true)
    }

    @Test func commentsAndInstructionsXMLCannotHoldAreAnError() throws {
        for comment in ["a -- b", "ends with a dash-", "--"] {
            var tree = ViewTree()
            tree.makeContent(.comment, comment)
            #expect(Self.error(tree)?.contains("comment") == true, "\(comment)")
        }
        var fine = ViewTree()
        fine.makeContent(.comment, " a - b -x ")
        fine.makeElement(named: "r")
        #expect(try fine.string(as: .xml) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a - b -x -->\n<r/>\n")

        var instruction = ViewTree()
        let pi = instruction.makeNode(type: TypeRegistry.shared.typeID(named: "?target"))
        instruction.makeElement(named: "r")
        instruction.setValue("a ?> b", of: pi)
        #expect(Self.error(instruction)?.contains("\"?>\"") == true)
        instruction.setValue("a ? > b", of: pi)
        #expect(try instruction.string(as: .xml) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?target a ? > b?>\n<r/>\n")
        // A target with a colon is no name where namespaces are read.
        var colon = ViewTree()
        colon.makeNode(type: TypeRegistry.shared.typeID(named: "?a:b"))
        colon.makeElement(named: "r")
        #expect(Self.error(colon)?.contains("not an XML name") == true)
    }

    /// A whole tree without an element is no XML document (an HTML file of one comment
    /// reads as one); a node alone is still written as a subtree, as a tool prints it.
    /// Whitespace beside the element is written as it is.
    @Test func aDocumentNeedsAnElement() throws {
        #expect(Self.error(ViewTree())?.contains("no element") == true)
        let comment = try TreeImporter().importTree(Array("<!-- c -->".utf8), format: .html)
        #expect(Self.error(comment)?.contains("no element") == true)
        #expect(try comment.string(as: .xml, subtree: comment.roots[0]) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c -->\n")
        var spaced = ViewTree()
        spaced.makeElement(named: "a")
        spaced.makeContent(.text, "\r\n\t")
        let written = try spaced.string(as: .xml)
        #expect(written == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a/>\n\r\n\t\n")
        #expect(try TreeImporter().importTree(Array(written.utf8), format: .xml).count == 1)
    }

    /// An XML document has one element at the top, and nothing but whitespace, comments
    /// and instructions beside it: a forest, or text a lenient HTML parse kept outside
    /// the document element, is an error; each tree of a forest is written as a subtree.
    @Test func aDocumentHasOneElementAtTheTop() throws {
        var forest = ViewTree()
        let a = forest.makeElement(named: "a")
        let b = forest.makeElement(named: "b")
        #expect(Self.error(forest)?.contains("second element at the top") == true)
        #expect(try forest.string(as: .xml, subtree: a) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a/>\n")
        #expect(try forest.string(as: .xml, subtree: b) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<b/>\n")
        var besides = ViewTree()
        besides.makeElement(named: "a")
        besides.makeContent(.text, "stray")
        #expect(Self.error(besides)?.contains("text outside the document element") == true)
        var cdata = ViewTree()
        cdata.makeContent(.cdata, "c")
        #expect(Self.error(cdata)?.contains("CDATA section outside") == true)
        // Comments beside the element are XML.
        var commented = ViewTree()
        commented.makeContent(.comment, "before")
        commented.makeElement(named: "a")
        #expect(Self.error(commented) == nil)
    }

    /// The writer's XML is read with namespaces: a prefix no element declares, an empty
    /// prefix declaration, a name of two colons are errors (a lenient HTML parse keeps
    /// all of them); a declared prefix, and `xml`, are written.
    @Test func prefixesMustBeDeclared() throws {
        func html(_ text: String) throws -> String? { Self.error(try TreeImporter().importTree(Array(text.utf8), format: .html)) }
        #expect(try html(#"<p x:y="1">t</p>"#)?.contains("\"x:y\", whose prefix is declared neither on it nor around it") == true)
        #expect(try html("<x:p>t</x:p>")?.contains("\"x:p\", whose prefix") == true)
        #expect(try html(#"<p xmlns:p="">t</p>"#)?.contains("as empty") == true)
        #expect(try html(#"<p a:b:c="1">t</p>"#)?.contains("not an XML attribute name") == true)
        #expect(try html(#"<p xmlns:xml="urn:wrong">t</p>"#)?.contains("binds the prefix xml") == true)
        #expect(try html(#"<p xmlns:xmlns="urn:q">t</p>"#)?.contains("which XML reserves") == true)
        #expect(try html(#"<html xmlns:o="urn:o"><body><o:p>x</o:p><p xml:lang="en"/></body></html>"#) == nil)
        // A subtree inherits no declaration the whole tree could not write.
        let empty = try TreeImporter().importTree(Array(#"<div xmlns:p=""><span>t</span></div>"#.utf8), format: .html)
        let span = empty.firstChild(of: empty.lastChild(of: empty.roots[0])!.self)!
        #expect(throws: ExportError.self) { try empty.string(as: .xml, subtree: empty.firstChild(of: span) ?? span) }
        // A prefix declared on a sibling's element is not in scope.
        #expect(try html(#"<div><span xmlns:s="urn:s"/><s:b/></div>"#)?.contains("\"s:b\", whose prefix") == true)
    }

    /// A subtree written alone declares the namespaces in scope around it on its root, so
    /// that it reads back alone with the names it has in place (lxml's `tostring` does the
    /// same); a declaration its root makes itself wins.
    @Test func aSubtreeDeclaresTheNamespacesAroundIt() throws {
        let xml = #"<r xmlns:p="urn:p" xmlns="urn:d" xmlns:q="urn:q"><p:a xmlns:q="urn:other" p:x="1"><b/><q:c/></p:a></r>"#
        let tree = try TreeImporter().importTree(Array(xml.utf8), format: .xml)
        let a = tree.firstChild(of: tree.roots[0])!
        let written = try tree.string(as: .xml, subtree: a)
        #expect(written == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p:a xmlns:q=\"urn:other\" p:x=\"1\" xmlns:p=\"urn:p\" xmlns=\"urn:d\"><b/><q:c/></p:a>\n")
        let alone = try TreeImporter().importTree(Array(written.utf8), format: .xml)
        let root = alone.roots[0]
        #expect(alone.attribute(named: "xmlns", of: root) == "urn:d" && alone.attribute(named: "xmlns:q", of: root) == "urn:other")
        #expect(alone.attribute(named: "xmlns:p", of: root) == "urn:p" && alone.children(of: root).count == 2)
        // The whole tree is written as it was.
        #expect(try tree.string(as: .xml) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + xml + "\n")
    }

    /// An XHTML file read as HTML: libxml2's HTML parser reports its XML declaration as an
    /// instruction, which the writer leaves out (it writes its own): the file it writes is
    /// XML that reads back to the same elements.
    @Test func anXHTMLFilesDeclarationIsNotWrittenTwice() throws {
        let html = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<html><body><p>caf\u{E9} \u{2014}</p><?php x ?></body></html>"
        let tree = try TreeImporter().importTree(Array(html.utf8), format: .html)
        let written = try tree.string(as: .xml)
        #expect(written.components(separatedBy: "<?xml").count == 2, "\(written)")
        #expect(written.hasSuffix("<html><body><p>caf\u{E9} \u{2014}</p><?php x ??></body></html>\n"), "\(written)")
        let again = try TreeImporter().importTree(Array(written.utf8), format: .xml)
        #expect(again.count == tree.count - 1)
    }

    /// Element, attribute and instruction names of 1 to 40 bytes (the writer copies a name
    /// of at most 16 bytes as two words, with the bytes around it, and a longer one byte by
    /// byte), of ASCII letters and with a two-byte character: each is written as it is, in
    /// a start tag with an attribute, an end tag or an empty element's tag, and read back.
    @Test func namesOfEveryLengthAreWrittenExactly() throws {
        var tree = ViewTree()
        let root = tree.makeElement(named: "r")
        var expected: [(name: String, attribute: String, value: String, empty: Bool)] = []
        for length in 1 ... 40 {
            for accented in [false, true] where !accented || length >= 3 {
                // `length` bytes: letters, or letters and an "é" (two bytes).
                let name = accented ? "n\u{E9}" + String(repeating: "m", count: length - 3) : String(repeating: "n", count: length)
                #expect(name.utf8.count == length)
                let attribute = "a" + name.dropFirst(), value = "v\(length)"
                let element = tree.makeElement(named: name, attributes: [attribute: value])
                tree.append(element, to: root)
                let empty = length % 2 == 0
                if !empty { tree.append(tree.makeContent(.text, "t"), to: element) }
                let instruction = tree.makeNode(type: TypeRegistry.shared.typeID(named: NodeKind.processingInstructionTypeName(target: "p" + name.dropFirst())))
                tree.setValue("d", of: instruction)
                tree.append(instruction, to: root)
                expected.append((name, attribute, value, empty))
            }
        }
        let written = try tree.string(as: .xml)
        for e in expected {
            let tag = "<\(e.name) \(e.attribute)=\"\(e.value)\"", element = e.empty ? tag + "/>" : tag + ">t</\(e.name)>"
            let instruction = "<?p\(e.name.dropFirst()) d?>"
            let (hasElement, hasInstruction) = (written.contains(element), written.contains(instruction))
            #expect(hasElement, "\(element) not written")
            #expect(hasInstruction, "\(instruction) not written")
        }
        let back = try TreeImporter().importTree(Array(written.utf8), format: .xml)
        let children = Array(back.children(of: back.roots[0]))
        #expect(children.count == 2 * expected.count)
        for (k, e) in expected.enumerated() where 2 * k + 1 < children.count {
            #expect(back.typeName(of: children[2 * k]) == e.name)
            #expect(back.namedAttributes(of: children[2 * k]).map(\.name) == [e.attribute])
            #expect(back.typeName(of: children[2 * k + 1]) == "?p" + e.name.dropFirst())
        }
    }

    /// Random texts of the characters the writer escapes, passes or refuses, at every
    /// position of its sixteen-byte steps, as text and as attribute values: each is written
    /// and read back the same, or refused if and only if it holds what XML cannot hold.
    @Test func randomTextsAreWrittenExactlyOrRefused() throws {
        let alphabet: [String] = ["a", "b", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{1}", "\u{1F}", "\u{E9}", "\u{FF0C}",
                                  "\u{FFFD}", "\u{FFFF}", "\u{FFFE}", "\u{1F600}", "]]>", "x"]
        var rng = SplitMix64(seed: 35)
        var refused = 0
        for n in 0 ..< 400 {
            let length = Int(rng.next() % 48)
            let text = (0 ..< length).map { _ in alphabet[Int(rng.next() % UInt64(n % 3 == 0 ? alphabet.count : 11))] }.joined()
            let unwritable = text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0xFFFE || $0.value == 0xFFFF }
            var tree = ViewTree()
            let root = tree.makeElement(named: "r", attributes: ["v": text])
            let child = tree.makeContent(.text, text)
            tree.append(child, to: root)
            guard let written = try? tree.bytes(as: .xml) else {
                #expect(unwritable, "refused \(text.debugDescription)")
                refused += 1
                continue
            }
            #expect(!unwritable, "wrote \(text.debugDescription)")
            let back = try TreeImporter().importTree(written, format: .xml)
            let r = back.roots[0]
            #expect(back.attribute(named: "v", of: r) == text, "attribute \(text.debugDescription)")
            // (An empty text node is written as nothing.)
            #expect((back.firstChild(of: r).flatMap { back.value(of: $0) } ?? "") == text, "text \(text.debugDescription)")
        }
        #expect(refused > 20 && refused < 380)
    }
}
