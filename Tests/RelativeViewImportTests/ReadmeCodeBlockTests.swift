import RelativeViewImport
import RelativeViewCore   // ViewTree and TypeRegistry (or import RelativeView, which re-exports it)
import Testing

/// The README's import example, verbatim (ReadmeCoverageTests checks that every ```swift block of
/// the README appears in a test file), in a file that imports only what the example imports
/// (the file check is in Support.swift, which imports Foundation).
@Suite struct ReadmeCodeBlockTests {
    @Test(.enabled(if: fileExists("/usr/share/mime/packages/freedesktop.org.xml")))
    func importingADocument() throws {
        let values = try readmeValues {
            let tree = try TreeImporter().importTree(contentsOf: "/usr/share/mime/packages/freedesktop.org.xml")
            let glob = TypeRegistry.shared.typeID(named: "glob")
            tree.group(.descendants, of: tree.documentElement!, keyingTypes: [glob: "glob"])   // ["glob": [...]]
        }
        try #require(values.count == 1)
        let groups = try #require(values[0] as? [String: [NodeID]])
        #expect(Array(groups.keys) == ["glob"])
        // The shared-mime-info database has a <glob> for most of its several hundred types.
        #expect((groups["glob"]?.count ?? 0) > 500)
    }
}

extension ReadmeCodeBlockTests {
    @Test func editingAndWritingADocument() throws {
        defer { removeFile("/tmp/p.json") }  // the README's path: the test leaves nothing behind
        let values = try readmeValues {
            var doc = try TreeImporter().importTree(Array(#"<p class="note">Hi <b>you</b></p>"#.utf8), format: .xml)
            let p = doc.documentElement!
            doc.textContent(of: p)                                   // "Hi you"
            doc.setAttribute(named: "lang", "en", of: p)
            try doc.string(as: .xml)                                 // <p class="note" lang="en">Hi <b>you</b></p>
            try doc.write(to: "/tmp/p.json", format: .json)          // JsonML: ["p",{"class":"note","lang":"en"},"Hi ",["b","you"]]
        }
        try #require(values.count == 4)
        #expect(values[0] as? String == "Hi you")
        #expect(values[2] as? String == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p class=\"note\" lang=\"en\">Hi <b>you</b></p>\n")
        #expect(try String(contentsOfFile: "/tmp/p.json", encoding: .utf8) == #"["p",{"class":"note","lang":"en"},"Hi ",["b","you"]]"# + "\n")
    }
}

/// The value of every expression statement of a block, in order (declarations add none).
@resultBuilder enum ReadmeValues {
    static func buildExpression<T>(_ value: T) -> [Any] { [value] }
    static func buildBlock(_ lines: [Any]...) -> [Any] { lines.flatMap { $0 } }
}

/// Runs `block` and returns the value of each of its expression lines (see ``ReadmeValues``).
func readmeValues(@ReadmeValues _ block: () throws -> [Any]) rethrows -> [Any] {
    try block()
}
