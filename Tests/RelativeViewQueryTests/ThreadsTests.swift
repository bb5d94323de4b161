import RelativeViewCore
import RelativeViewFixtures
import RelativeViewImport
import RelativeViewQuery
import Testing

/// A query on two or three threads answers what it answers on one: the large scans that
/// split (a descendant scan with its conditions, a filter over a large set, a CSS compound
/// over every element) concatenate their parts in document order.
@Suite struct ThreadsTests {
    /// About 300,000 nodes: the scans of the whole tree split (at 2 x 65,536 items).
    static let tree: ViewTree = {
        try! TreeImporter().importTree(SampleDocuments.xml(elements: 150_000, seed: 7), format: .xml, path: "big.xml")
    }()

    @Test(arguments: [
        "//*[@id]", "//*[@class and not(@tag)]", "//node()[not(self::text())]", "//*[@tag > 10]",
        "//div[span]", "//*[ancestor::ul]", "//text()[parent::p]", "//*[@id][2]", "count(//*[@class = 'a'])",
    ])
    func xpathOnThreads(expression: String) throws {
        let tree = Self.tree
        #expect(tree.count > 2 * 65_536)
        let query = try XPath(expression)
        let one = try tree.evaluate(query, threads: 1)
        for threads in [2, 3] {
            let more = try tree.evaluate(query, threads: threads)
            #expect(more == one, "\(expression) on \(threads) threads")
        }
        if case .nodes(let nodes) = one { #expect(!nodes.isEmpty, "\(expression) selects something") }
    }

    @Test(arguments: ["[id]", ".a", "*[tag$='1']", "[id^='n12']", ":not([class])", "div > *:nth-child(2)", "* span"])
    func cssOnThreads(selector: String) throws {
        let tree = Self.tree
        let query = try CSSSelector(selector)
        let one = try tree.select(query, threads: 1)
        #expect(!one.isEmpty, "\(selector) selects something")
        #expect(try tree.select(query, threads: 2) == one, "\(selector) on 2 threads")
    }
}
