import Foundation
import RelativeViewCore
import RelativeViewImport
import Testing

/// Documents an attacker would send: entity expansion past the bound, external entities
/// and DTDs. Each either imports what its own bytes say or fails with an `ImportError`
/// naming the file, line and column; none runs away with time or memory.
@Suite struct HostileXMLTests {
    /// Ten levels of ten references each ("billion laughs"): 10^10 expansions unbounded.
    static func laughs(levels: Int = 10, fanOut: Int = 10, first: String = "lol", use: (String) -> String) -> String {
        var declarations = [#"<!ENTITY e0 "\#(first)">"#]
        for i in 1 ... levels {
            declarations.append("<!ENTITY e\(i) \"" + String(repeating: "&e\(i - 1);", count: fanOut) + "\">")
        }
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n" + declarations.joined(separator: "\n") + "\n]>\n" + use("&e\(levels);") + "\n"
    }

    static func expectExpansionError(_ text: String, line: Int) throws {
        let error = try #require(importError(text, as: .xml, path: "hostile.xml"))
        #expect(error.path == "hostile.xml")
        #expect(error.message.contains("entity expansion past the limit"), "\(error)")
        #expect(error.line == line, "\(error)")
        #expect(error.column != nil, "\(error)")
    }

    @Test func billionLaughsInTextIsAnError() throws {
        // Line 15: the document element, after the XML declaration and the DOCTYPE (13 lines).
        try Self.expectExpansionError(Self.laughs { "<r>\($0)</r>" }, line: 15)
    }

    @Test func billionLaughsInAnAttributeIsAnError() throws {
        try Self.expectExpansionError(Self.laughs { "<r a=\"\($0)\"/>" }, line: 15)
    }

    @Test func entitiesThatExpandToElementsAreBoundedToo() throws {
        // Each expansion would be an element: 10^8 of them unbounded.
        try Self.expectExpansionError(Self.laughs(levels: 8, first: "<x/>") { "<r>\($0)</r>" }, line: 13)
    }

    @Test func aLargeEntityReferencedManyTimesIsAnError() throws {
        // The quadratic blowup: 100 KB of replacement text, referenced 20,000 times (2 GB).
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE q [<!ENTITY a \"" + String(repeating: "A", count: 100_000)
            + "\">]>\n<q>" + String(repeating: "&a;", count: 20_000) + "</q>\n"
        try Self.expectExpansionError(text, line: 3)
    }

    @Test func parameterEntitiesAreBoundedToo() throws {
        var declarations = [#"<!ENTITY % p0 "<!ENTITY x 'y'>">"#]
        for i in 1 ... 10 {
            declarations.append("<!ENTITY % p\(i) \"" + String(repeating: "%p\(i - 1);", count: 10) + "\">")
        }
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n" + declarations.joined(separator: "\n") + "\n%p10;\n]>\n<r/>\n"
        // libxml2 refuses parameter entity references inside an entity value of the
        // internal subset itself; either way the document must not import.
        let error = try #require(importError(text, as: .xml, path: "hostile.xml"))
        #expect(error.path == "hostile.xml")
        #expect(error.line != nil && error.column != nil, "\(error)")
    }

    @Test func expansionUnderTheBoundImports() throws {
        // Four levels of ten: 10,000 references to "lol", about 120 KB of entity text in a
        // document of 0.4 KB: under the 1 MiB floor of the bound.
        let tree = try importing(Self.laughs(levels: 4) { "<r>\($0)</r>" }, as: .xml)
        #expect(outline(tree) == "r")
        #expect(MarkupTreeReader.maximumEntityExpansion(forDocumentBytes: 0) == 1 << 20)
        #expect(MarkupTreeReader.maximumEntityExpansion(forDocumentBytes: 1000) == 10_000 + 1 << 20)
    }

    @Test func anExternalEntityIsNeverLoaded() throws {
        try withTemporaryDirectory { (dir) throws in
            try "<secret/>".write(toFile: dir + "/secret.xml", atomically: true, encoding: .utf8)
            let text = """
                <?xml version="1.0"?>
                <!DOCTYPE r [<!ENTITY x SYSTEM "file://\(dir)/secret.xml">]>
                <r>&x;</r>
                """
            // Not loaded: the reference is skipped, and no `secret` element appears.
            let tree = try importing(text, as: .xml)
            #expect(outline(tree) == "r")
        }
    }

    /// A whole import (the default) expands internal entities (XML_PARSE_NOENT), under
    /// which libxml2 loads an external entity it finds declared, even where `getEntity`
    /// gives none: neither text nor elements of a local file, by a relative or a `file:`
    /// reference, nor what an external parameter entity declares, reach the tree (a
    /// differential run found a file's text in the tree, and the comment of
    /// `anExternalEntityIsNeverLoaded` held only for a skeleton import). A reference to
    /// one is an error naming it, line and column, not text lost without a word (XML 1.0,
    /// 4.4.3); a declaration nothing refers to is harmless.
    @Test func aWholeImportLoadsNoExternalEntity() throws {
        try withTemporaryDirectory { (dir) throws in
            try "SECRET TEXT".write(toFile: dir + "/secret.txt", atomically: true, encoding: .utf8)
            try "<secret/>".write(toFile: dir + "/secret.xml", atomically: true, encoding: .utf8)
            try #"<!ENTITY leaked "SECRET DECLARATION">"#.write(toFile: dir + "/secret.dtd", atomically: true, encoding: .utf8)
            for system in ["secret.txt", "secret.xml", "file://\(dir)/secret.txt", "file://\(dir)/secret.xml"] {
                let text = """
                    <!DOCTYPE r [<!ENTITY x SYSTEM "\(system)"><!ENTITY y "inner">]>
                    <r a="&y;">&y;
                    &x;</r>
                    """
                let error = #expect(throws: ImportError.self) {
                    try TreeImporter().importTree(Array(text.utf8), format: .xml, path: dir + "/doc.xml")
                }
                #expect(error?.line == 3, "\(system)")
                #expect(error?.message.contains("&x; is external (SYSTEM \"\(system)\")") == true, "\(String(describing: error))")
                #expect(error?.message.contains("SECRET") == false)
                // Declared and never referred to: imported.
                let unused = "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(system)\"><!ENTITY y \"inner\">]>\n<r a=\"&y;\">&y;</r>"
                let tree = try TreeImporter().importTree(Array(unused.utf8), format: .xml, path: dir + "/doc.xml")
                let r = try #require(tree.documentElement)
                #expect(tree.textContent(of: r) == "inner", "\(system)")
                #expect(tree.attribute(named: "a", of: r) == "inner")
                #expect(tree.descendants(of: r).allSatisfy { tree.typeName(of: $0) != "secret" }, "\(system)")
            }
            // An external parameter entity is not read either: what it declares is
            // undeclared, and a reference to it is an error, not a secret.
            let text = "<!DOCTYPE r [<!ENTITY % p SYSTEM \"file://\(dir)/secret.dtd\"> %p;]>\n<r>&leaked;</r>"
            let error = #expect(throws: ImportError.self) {
                try TreeImporter().importTree(Array(text.utf8), format: .xml, path: dir + "/doc.xml")
            }
            #expect(error?.message.contains("&leaked; is not declared") == true, "\(String(describing: error))")
            #expect(error?.message.contains("SECRET") == false)
            // A skeleton keeps no text: the reference is skipped, as before.
            #expect(outline(try importing(text, as: .xml)) == "r")
        }
    }

    /// A default value of the internal subset is text the tree keeps: a reference in it to
    /// an external entity is the same error as one in the document.
    @Test func anExternalEntityInADefaultValueIsAnError() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"a.txt\"><!ATTLIST r a CDATA \"&x;\">]>\n<r/>"
        let error = #expect(throws: ImportError.self) { try TreeImporter().importTree(Array(text.utf8), format: .xml) }
        #expect(error?.message.contains("&x; is external") == true, "\(String(describing: error))")
        #expect(error?.line == 2)
        // In an internal entity's text: the document stops too.
        let nested = "<!DOCTYPE r [<!ENTITY x SYSTEM \"a.txt\"><!ENTITY y \"<b>&x;</b>\">]>\n<r>&y;<c/></r>"
        let inner = #expect(throws: ImportError.self) { try TreeImporter().importTree(Array(nested.utf8), format: .xml) }
        #expect(inner?.message.contains("&x; is external") == true, "\(String(describing: inner))")
    }

    /// The first declaration of an entity binds (XML 1.0, 4.2): an external one after an
    /// internal one of the same name changes nothing.
    @Test func theFirstDeclarationOfAnEntityBinds() throws {
        let text = "<!DOCTYPE r [<!ENTITY x \"first\"><!ENTITY x SYSTEM \"world.txt\">]>\n<r>&x;</r>"
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml)
        #expect(tree.textContent(of: try #require(tree.documentElement)) == "first")
    }

    /// An entity of a DTD that is never read: a name of HTML 4's character entities in a
    /// document whose DTD is XHTML's (or RSS 0.91's) is the character that DTD declares, in
    /// text and in attribute values; any other is an error naming it and the DTD, with
    /// line and column, where it used to vanish from the text.
    @Test func entitiesOfADTDNeverRead() throws {
        let xhtml = """
            <?xml version="1.0"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml"><body><p title="&eacute;t&eacute;">a&nbsp;b &copy; c&mdash;&amp;</p></body></html>
            """
        let tree = try TreeImporter().importTree(Array(xhtml.utf8), format: .xml)
        let html = try #require(tree.documentElement)
        let p = try #require(tree.descendants(of: html).first { tree.typeName(of: $0) == "p" })
        #expect(tree.textContent(of: p) == "a\u{A0}b \u{A9} c\u{2014}&")
        #expect(tree.attribute(named: "title", of: p) == "\u{E9}t\u{E9}")
        let rss = "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"http://my.netscape.com/publish/formats/rss-0.91.dtd\">\n<rss><title>&laquo;x&raquo;</title></rss>"
        let feed = try TreeImporter().importTree(Array(rss.utf8), format: .xml)
        #expect(feed.textContent(of: try #require(feed.documentElement)) == "\u{AB}x\u{BB}")

        // An XHTML dialect's DTD, and a default value of the internal subset's.
        let mobile = "<!DOCTYPE html PUBLIC \"-//WAPFORUM//DTD XHTML Mobile 1.0//EN\" \"m.dtd\" [<!ATTLIST p title CDATA \"&eacute;t&eacute;\">]>\n<html><p>&nbsp;</p></html>"
        let phone = try TreeImporter().importTree(Array(mobile.utf8), format: .xml)
        let phoneRoot = try #require(phone.documentElement)
        let q = try #require(phone.firstChild(of: phoneRoot))
        #expect(phone.attribute(named: "title", of: q) == "\u{E9}t\u{E9}")
        #expect(phone.textContent(of: q) == "\u{A0}")

        // XHTML's DTD has no `&bogus;`; RSS 0.91's none past ISO Latin 1; DocBook's is not
        // one this import knows.
        let rssDash = rss.replacingOccurrences(of: "&raquo;", with: "&mdash;")
        let rssError = #expect(throws: ImportError.self) { try TreeImporter().importTree(Array(rssDash.utf8), format: .xml) }
        #expect(rssError?.message.contains("&mdash; is not declared") == true)
        for (document, name) in [(xhtml.replacingOccurrences(of: "&copy;", with: "&bogus;"), "bogus"),
                                 ("<?xml version=\"1.0\"?>\n<!DOCTYPE book SYSTEM \"docbook.dtd\">\n<book><p>a &mdash; b</p></book>", "mdash")] {
            let error = #expect(throws: ImportError.self) { try TreeImporter().importTree(Array(document.utf8), format: .xml, path: "doc.xml") }
            #expect(error?.line == 3)
            #expect(error?.column != nil)
            #expect(error?.message.contains("&\(name); is not declared in the document (from \"") == true, "\(String(describing: error))")
        }
    }

    @Test func anExternalDTDIsNeverLoaded() throws {
        try withTemporaryDirectory { (dir) throws in
            // Loaded, its default attribute would give the root tag 5.
            try #"<!ATTLIST r tag CDATA "5">"#.write(toFile: dir + "/r.dtd", atomically: true, encoding: .utf8)
            let text = """
                <?xml version="1.0"?>
                <!DOCTYPE r SYSTEM "file://\(dir)/r.dtd">
                <r/>
                """
            #expect(outline(try importing(text, as: .xml)) == "r")
            // The control: the same declaration in the internal subset applies, whole or
            // skeleton (XML 1.0, 5.1: even a processor that does not validate supplies it).
            let inline = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ATTLIST r tag CDATA \"5\">]>\n<r/>"
            #expect(outline(try importing(inline, as: .xml)) == "r[5]")
            let whole = try TreeImporter().importTree(Array(inline.utf8), format: .xml)
            let r = try #require(whole.documentElement)
            #expect(whole.tag(of: r) == 5)
            #expect(whole.attribute(named: "tag", of: r) == "5")
            let external = try TreeImporter().importTree(Array(text.utf8), format: .xml)
            let root = try #require(external.documentElement)
            #expect(external.namedAttributes(of: root).isEmpty)
        }
    }

    @Test func aNetworkDTDIsNeverFetched() throws {
        // XML_PARSE_NONET: no connection is attempted (a closed local port would refuse it
        // anyway; what matters is that the import does not wait or fail on it).
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/r.dtd\">\n<r/>"
        #expect(outline(try importing(text, as: .xml)) == "r")
    }
}
