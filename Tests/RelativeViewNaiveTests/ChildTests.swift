import Testing
import RelativeViewNaive

/// The naive core's child queries: the subviews, in order, never the view itself.
@Suite struct ChildTests {
    @Test func childQueriesReadTheSubviewsInOrder() {
        let root = NaiveView()
        let (a, b, c) = (NaiveView(), NaiveView.Label(), NaiveView.Label())
        let grandchild = NaiveView()
        for view in [a, b, c] { root.addSubview(view) }
        a.addSubview(grandchild)
        (a.tag, b.tag, c.tag, grandchild.tag) = (1, 2, 2, 2)

        #expect(a.isRelativeChild(of: root) && grandchild.isRelativeChild(of: a))
        #expect(!grandchild.isRelativeChild(of: root), "a grandchild is not a child")
        #expect(!root.isRelativeChild(of: a) && !root.isRelativeChild(of: root))
        #expect(root.findFirstChild(by: [2]) === b)
        #expect(root.findFirstChild(by: [NaiveView.Label.self]) === b)
        #expect(root.findFirstChild { $0.tag == 1 } === a)
        #expect(grandchild.findFirstChild(by: [2]) == nil)
        let byTag = root.groupChildren(by: [2, 1])
        #expect(byTag.count == 2 && byTag[1]?.count == 1 && byTag[1]?[0] === a)
        #expect(byTag[2]?.count == 2 && byTag[2]?[0] === b && byTag[2]?[1] === c, "subviews order, no grandchild")
        let byType = root.groupChildren(by: [NaiveView.Label.self])
        #expect(byType.keys.sorted() == ["Label"] && byType["Label"]?.count == 2)
        #expect(root.groupChildren { $0.tag == 2 ? "two" : nil }["two"]?.count == 2)
        #expect(grandchild.groupChildren(by: [2]).isEmpty)
    }
}
