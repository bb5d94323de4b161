import Testing
import RelativeViewCore
import RelativeViewImport
@testable import RelativeViewQuery

/// Generated documents and generated expressions, each evaluated by ours and by libxml2's
/// XPath on the same document: the same nodes in the same order, the same values.
@Suite struct XPathDifferentialTests {
    @Test(arguments: 1 ... 8 as ClosedRange<UInt64>)
    func generatedExpressionsOnGeneratedDocuments(seed: UInt64) throws {
        var fuzz = XPathFuzz(seed: seed)
        var mismatches: [String] = []
        var compared = 0, nonEmpty = 0
        for _ in 0 ..< 6 {
            let text = fuzz.document(elements: 60)
            let oracle = try #require(LibXML2Document(text))
            let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
            for _ in 0 ..< 120 {
                let e = fuzz.expression()
                let theirs = oracle.answer(e), ours = ourAnswer(tree, e)
                compared += 1
                switch theirs {
                case .nodes(let n) where !n.isEmpty: nonEmpty += 1
                case .boolean(true): nonEmpty += 1
                case .number(let n) where n != 0 && !n.isNaN: nonEmpty += 1
                case .string(let s) where !s.isEmpty: nonEmpty += 1
                default: break
                }
                if theirs != ours && mismatches.count < 12 { mismatches.append("\(e)\n  libxml2: \(theirs)\n  ours:    \(ours)\n  doc: \(text.prefix(300))") }
            }
        }
        // Not a vacuous comparison: a good part of the expressions select something.
        #expect(nonEmpty > compared / 4, "\(nonEmpty) of \(compared) answers were non-empty")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }
}

/// Documents with namespaces: a default namespace, undeclared again below, another one, and
/// a prefix. An unprefixed name test matches only elements in no namespace, a prefixed one
/// (its prefix bound for the query, not the document's) the elements of that namespace;
/// local-name(), name() and namespace-uri() as libxml2 gives them.
@Suite struct XPathWithNamespacesTests {
    @Test(arguments: 21 ... 24 as ClosedRange<UInt64>)
    func generatedExpressionsOnNamespacedDocuments(seed: UInt64) throws {
        var fuzz = XPathFuzz(seed: seed)
        fuzz.prefixes = true
        var mismatches: [String] = []
        for _ in 0 ..< 4 {
            let text = fuzz.document(elements: 60, namespaces: true)
            let oracle = try #require(LibXML2Document(text))
            let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
            for _ in 0 ..< 100 {
                let e = fuzz.expression()
                let theirs = oracle.answer(e, namespaces: XPathFuzz.bindings), ours = ourAnswer(tree, e, namespaces: XPathFuzz.bindings)
                if theirs != ours && mismatches.count < 8 { mismatches.append("\(e)\n  libxml2: \(theirs)\n  ours:    \(ours)\n  doc: \(text.prefix(200))") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }
}

/// The same after random subtree moves: the tree's slots are no longer in document order,
/// so the index numbers them anew (ranks, parents and types by rank); libxml2 reads the
/// moved tree written back out.
@Suite struct XPathOnMovedTreesTests {
    @Test(arguments: 11 ... 18 as ClosedRange<UInt64>)
    func generatedExpressionsAfterMoves(seed: UInt64) throws {
        var fuzz = XPathFuzz(seed: seed)
        var mismatches: [String] = []
        for _ in 0 ..< 4 {
            var tree = try TreeImporter().importTree(Array(fuzz.document(elements: 60, mixed: false).utf8), format: .xml, path: "doc.xml")
            let root = try #require(tree.documentElement)
            // Move elements (never the root, never under themselves) to new parents.
            let elements = [root] + tree.descendants(of: root).filter { tree.kind(of: $0) == .element }
            var moved = 0
            for _ in 0 ..< 40 {
                let node = fuzz.pick(Array(elements.dropFirst())), target = fuzz.pick(elements)
                guard node != target && !tree.isDescendant(target, of: node) else { continue }
                if fuzz.chance(50) { tree.append(node, to: target) } else { tree.insert(node, into: target, at: 0) }
                moved += 1
            }
            #expect(moved > 10)
            let index = _DocumentIndex.of(tree)
            #expect(index.order != nil, "after moves the slots are not in document order")
            let text = try tree.string(as: .xml)
            let oracle = try #require(LibXML2Document(text))
            for _ in 0 ..< 100 {
                let e = fuzz.expression()
                let theirs = oracle.answer(e), ours = ourAnswer(tree, e)
                if theirs != ours && mismatches.count < 8 { mismatches.append("\(e)\n  libxml2: \(theirs)\n  ours:    \(ours)\n  doc: \(text)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }
}

/// An HTML document, read by libxml2's HTML parser both ways: its `xmlns` is an attribute
/// like any other (an inline `svg` and its `path` are in no namespace), its ids are its
/// `id` attributes and an `a`'s `name` (the first element of each), as libxml2's XPath has
/// them on its HTML tree.
@Suite struct HTMLXPathTests {
    static let page = """
        <html><head><title>t</title></head><body><p id="x">1</p><a name="y">2</a><p id="x">3</p>\
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xl="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><path d="M0"/>\
        <use xl:href="#p"/></svg><DIV CLASS="a">4</DIV><span name="y">5</span></body></html>
        """

    @Test(arguments: [
        "//svg", "//path", "//svg/@*", "count(//svg/@*)", "namespace-uri(//svg)", "namespace-uri(//path)", "local-name(//svg/@*[1])",
        "name(//use/@*)", "//svg/namespace::*", "//*[@xmlns]", "id('x')", "id('y')", "id('x y')", "id('z')", "id(//span/@name)",
        "//div[@class = 'a']", "//*[local-name() = 'svg']/*", "count(//*)",
    ])
    func answersAsLibXML2sHTMLTree(expression: String) throws {
        let tree = try TreeImporter().importTree(Array(Self.page.utf8), format: .html, path: "page.html")
        #expect(tree.isHTMLDocument)
        let oracle = try #require(LibXML2Document(Self.page, html: true))
        #expect(ourAnswer(tree, expression) == oracle.answer(expression), "\(expression)")
        // The same from a snapshot of it, which keeps that it was HTML.
        let loaded = try ViewTree(snapshot: tree.snapshot())
        #expect(loaded.isHTMLDocument)
        #expect(ourAnswer(loaded, expression) == oracle.answer(expression), "\(expression), loaded")
    }

    @Test func anXMLDocumentIsNotHTML() throws {
        let tree = try TreeImporter().importTree(Array("<r xmlns=\"urn:x\"><svg/></r>".utf8), format: .xml, path: "r.xml")
        #expect(!tree.isHTMLDocument)
        #expect(try tree.evaluate(XPath("//svg")) == .nodes([]))
        #expect(try !ViewTree(snapshot: tree.snapshot()).isHTMLDocument)
    }
}

