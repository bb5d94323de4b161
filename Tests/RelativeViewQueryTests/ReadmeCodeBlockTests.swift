import Testing
import RelativeViewImport
import RelativeViewQuery
import RelativeViewCore

/// The README's query example, verbatim (ReadmeCoverageTests checks that every ```swift block
/// of the README appears in a test file), with what its comments claim checked.
@Suite struct ReadmeQueryTests {
    @Test func cssXPathAndJSONPath() throws {
        let list = try TreeImporter().importTree(Array(#"<ul><li class="a">x</li><li>y</li></ul>"#.utf8), format: .xml)
        let first = try list.select(CSSSelector("ul > li.a"))          // [the first li]
        let second = try list.select(XPath("//li[not(@class)]"))       // [the second li]
        let count = try list.evaluate(XPath("count(//li)"))            // .number(2)

        let store = try TreeImporter().importTree(Array(#"{"book":[{"price":8},{"price":12}]}"#.utf8), format: .json)
        let cheap = try store.select(JSONPath("$.book[?@.price < 10]"))  // [the first book]
        let paths = store.normalizedPaths(of: cheap)                     // ["$['book'][0]"]

        let books = Array(store.children(of: store.children(of: store.roots[0]).first!))
        #expect(cheap == [books[0]])
        #expect(paths == ["$['book'][0]"])

        let items = Array(list.children(of: list.documentElement!))
        #expect(first == [items[0]])
        #expect(second == [items[1]])
        #expect(count == .number(2))
    }
}
