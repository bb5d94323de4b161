import Foundation
import Testing
import RelativeViewCore
import RelativeViewImport
@testable import RelativeViewQuery

/// CSS selectors: the cases lxml with cssselect answered (`scripts/make-css-cases.py`), and
/// the rules they do not reach.
@Suite struct CSSSelectorTests {
    struct Cases: Decodable {
        struct Case: Decodable {
            struct Selector: Decodable {
                let selector: String
                let elements: [Int]
            }
            let document: String
            let selectors: [Selector]
        }
        let cases: [Case]
    }

    /// Each matched element's number among all the elements in document order.
    static func numbers(_ tree: ViewTree, _ nodes: [NodeID]) -> [Int] {
        var number: [NodeID: Int] = [:]
        var n = 0
        for root in tree.roots {
            for node in [root] + tree.descendants(of: root) where tree.kind(of: node) == .element {
                number[node] = n
                n += 1
            }
        }
        return nodes.map { number[$0] ?? -1 }
    }

    @Test func theCasesOfLXMLAndCSSSelect() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/css-cases.json")
        let cases = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: url))
        var mismatches: [String] = []
        var compared = 0
        for c in cases.cases {
            let tree = try TreeImporter().importTree(Array(c.document.utf8), format: .xml, path: "doc.xml")
            for s in c.selectors {
                compared += 1
                let ours = try Self.numbers(tree, tree.select(CSSSelector(s.selector)))
                let theirs = s.elements
                if ours != theirs && mismatches.count < 10 {
                    mismatches.append("\(s.selector)\n  cssselect: \(theirs.prefix(20))\n  ours:      \(ours.prefix(20))")
                }
            }
        }
        #expect(compared == 720)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    static let page = """
        <html><body><div id="a" class="x y"><p lang="en-US">1</p><p>2</p><span/>  <p class="y">3</p></div>\
        <ul><li>a</li><li class="x">b</li><li><a href="https://e.org">c</a></li></ul><p/></body></html>
        """

    func names(_ selector: String) throws -> [String] {
        let tree = try TreeImporter().importTree(Array(Self.page.utf8), format: .xml, path: "page.xml")
        return try tree.select(CSSSelector(selector)).map { node in
            tree.typeName(of: node) + (tree.attribute(named: "id", of: node).map { "#" + $0 } ?? "")
                + (tree.value(of: tree.firstChild(of: node) ?? node).map { ":" + $0 } ?? "")
        }
    }

    @Test func selectorsAndTheirElements() throws {
        #expect(try names("div > p") == ["p:1", "p:2", "p:3"])
        #expect(try names("p + span") == ["span"])
        #expect(try names("span ~ p") == ["p:3"])
        #expect(try names("li:nth-child(2n+1)") == ["li:a", "li"])
        #expect(try names("p:only-of-type, p:empty") == ["p"])
        #expect(try names("[lang|=en]") == ["p:1"])
        #expect(try names("a[href^='https' i]") == ["a:c"])
        #expect(try names("div:has(> span)") == ["div#a"])
        #expect(try names("li:has(a)") == ["li"])
        #expect(try names("p:has(+ span)") == ["p:2"])
        #expect(try names(":is(ul, div) > :not(p, li.x)") == ["span", "li:a", "li"])
        #expect(try names("body > :last-child") == ["p"])
        #expect(try names(":root") == ["html"])
        #expect(try names("span:empty") == ["span"])
        #expect(try names(".x.y") == ["div#a"])
        #expect(try names("#a p.y") == ["p:3"])
    }

    /// Namespaces as `querySelectorAll` has them (it declares none, so `E` is `*|E`), and
    /// `:lang()`, from the element or its nearest ancestor that gives a language.
    @Test func namespacesAndLanguages() throws {
        let text = """
            <r xmlns:a="urn:a" xml:lang="de-CH"><a:z n="1"/><z n="2" xmlns="urn:d"/><z n="3"/>\
            <q lang="EN"><z n="4"/><s xml:lang="fr" lang="en"><z n="5"/></s></q></r>
            """
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "ns.xml")
        func ns(_ selector: String) throws -> [String] {
            try tree.select(CSSSelector(selector)).map { node in tree.attribute(named: "n", of: node) ?? tree.typeName(of: node) }
        }
        #expect(try ns("z") == ["1", "2", "3", "4", "5"])
        #expect(try ns("*|z") == ["1", "2", "3", "4", "5"])
        // In no namespace: not the prefixed one, nor the one in the default namespace urn:d.
        #expect(try ns("|z") == ["3", "4", "5"])
        #expect(try ns("|*").count == 6 && ns("*|*").count == 8)
        #expect(try ns("[|n='2']") == ["2"])
        #expect(try ns("z:lang(de)") == ["1", "2", "3"])
        #expect(try ns("z:lang(en)") == ["4"])
        #expect(try ns("z:lang(fr)") == ["5"])
        #expect(try ns(":lang(de-ch)").count == 4)
        #expect(try ns(":lang(d)").isEmpty)
    }

    /// `:*-of-type` counts siblings of the same expanded name (namespace URI and local
    /// name), not of the same name as written: `x:p` and `p` under `xmlns="urn:x"` are one
    /// type, `p` under two default namespaces two (found by a differential run against a
    /// browser's rules on W3C's C14N test documents).
    @Test func ofTypeComparesExpandedNames() throws {
        let text = #"<r xmlns="urn:x"><p n="1"/><x:p n="2" xmlns:x="urn:x"/><p n="3" xmlns="urn:y"/><q n="4"/></r>"#
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "of-type.xml")
        func ns(_ selector: String) throws -> [String] {
            try tree.select(CSSSelector(selector)).map { node in tree.attribute(named: "n", of: node) ?? tree.typeName(of: node) }
        }
        #expect(try ns("p:first-of-type") == ["1", "3"])
        #expect(try ns("p:last-of-type") == ["2", "3"])
        #expect(try ns("p:nth-of-type(2)") == ["2"])
        #expect(try ns("p:nth-last-of-type(2)") == ["1"])
        #expect(try ns("*:only-of-type") == ["r", "3", "4"])
        let prefixes = try TreeImporter().importTree(
            Array(#"<r xmlns:a="urn:x" xmlns:b="urn:x"><a:p/><b:p/><c:p xmlns:c="urn:c"/></r>"#.utf8), format: .xml, path: "p.xml")
        #expect(try prefixes.select(CSSSelector("p:only-of-type")).map { prefixes.typeName(of: $0) } == ["c:p"])
        // No namespace declared: the type as written, as before.
        let plain = try TreeImporter().importTree(Array(#"<r><p/><q/><p n="2"/></r>"#.utf8), format: .xml, path: "plain.xml")
        #expect(try plain.select(CSSSelector("p:nth-of-type(2)")).map { plain.attribute(named: "n", of: $0) } == ["2"])
    }

    /// In an HTML document element and attribute names ignore ASCII case (its parser wrote
    /// them in lower case); in an XML document they do not.
    @Test func htmlNamesIgnoreCase() throws {
        let page = #"<html><body><DIV CLASS="a">1</DIV><svg viewBox="0 0 1 1"><path/></svg></body></html>"#
        let html = try TreeImporter().importTree(Array(page.utf8), format: .html, path: "p.html")
        func count(_ tree: ViewTree, _ selector: String) throws -> Int { try tree.select(CSSSelector(selector)).count }
        #expect(try count(html, "DIV") == 1 && count(html, "div") == 1 && count(html, "[CLASS=a]") == 1)
        #expect(try count(html, "svg[viewBox]") == 1 && count(html, "SVG > PATH") == 1)
        let xml = try TreeImporter().importTree(Array(#"<r><DIV CLASS="a"/></r>"#.utf8), format: .xml, path: "r.xml")
        #expect(try count(xml, "div") == 0 && count(xml, "DIV") == 1 && count(xml, "[class]") == 0)
    }

    @Test(arguments: ["", "div >", "p,", "[a", "a[b=]", ":hover", "p::before", "ns|p", "[ns|a]", "[*|a]", "|", "*|", ":lang()", ":nth-child(x)", "#", "a..b", ":not(", "div >> p"])
    func badSelectorsAreErrors(selector: String) {
        #expect(throws: QueryError.self) { try CSSSelector(selector) }
    }
}
