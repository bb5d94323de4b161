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
    /// `anExternalEntityIsNeverLoaded` held only for a skeleton import).
    @Test func aWholeImportLoadsNoExternalEntity() throws {
        try withTemporaryDirectory { (dir) throws in
            try "SECRET TEXT".write(toFile: dir + "/secret.txt", atomically: true, encoding: .utf8)
            try "<secret/>".write(toFile: dir + "/secret.xml", atomically: true, encoding: .utf8)
            try #"<!ENTITY leaked "SECRET DECLARATION">"#.write(toFile: dir + "/secret.dtd", atomically: true, encoding: .utf8)
            for system in ["secret.txt", "secret.xml", "file://\(dir)/secret.txt", "file://\(dir)/secret.xml"] {
                let text = """
                    <!DOCTYPE r [<!ENTITY x SYSTEM "\(system)"><!ENTITY y "inner">]>
                    <r a="&y;">&x;&y;</r>
                    """
                let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: dir + "/doc.xml")
                let r = try #require(tree.documentElement)
                #expect(tree.textContent(of: r) == "inner", "\(system)")
                #expect(tree.attribute(named: "a", of: r) == "inner")
                #expect(tree.descendants(of: r).allSatisfy { tree.typeName(of: $0) != "secret" }, "\(system)")
            }
            // An external parameter entity is not read either: what it declares is undeclared.
            let text = "<!DOCTYPE r [<!ENTITY % p SYSTEM \"file://\(dir)/secret.dtd\"> %p;]>\n<r>&leaked;</r>"
            // (The reference to it is then one to an undeclared entity in a document with
            // parameter entity references: a validity error only, and skipped.)
            let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: dir + "/doc.xml")
            #expect(tree.textContent(of: try #require(tree.documentElement)) == "")
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
            // The control: the same declaration in the internal subset applies.
            let inline = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ATTLIST r tag CDATA \"5\">]>\n<r/>"
            #expect(outline(try importing(inline, as: .xml)) == "r[5]")
        }
    }

    @Test func aNetworkDTDIsNeverFetched() throws {
        // XML_PARSE_NONET: no connection is attempted (a closed local port would refuse it
        // anyway; what matters is that the import does not wait or fail on it).
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/r.dtd\">\n<r/>"
        #expect(outline(try importing(text, as: .xml)) == "r")
    }
}
