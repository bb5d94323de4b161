import Testing
import RelativeViewFixtures
@testable import RelativeView

/// Views keep their positions in the index with the tree's version (`View+Spans.swift`), so
/// ancestor queries on an unchanged tree read only the two views (and block labels). These
/// tests change trees between queries in every way a view's store, node or positions can
/// change, and check every answer against a walk up the superviews.
@Suite struct KeptSpanTests {
    /// Whether `a` is a proper ancestor of `d`, by walking up from `d`.
    func walkIsAncestor(_ a: View, _ d: View) -> Bool {
        var x = d.superview
        while let v = x {
            if v === a { return true }
            x = v.superview
        }
        return false
    }

    /// Every ordered pair of `views`, against the walk.
    func expectAllPairs(_ views: [View], _ note: Comment = "", sourceLocation: SourceLocation = #_sourceLocation) {
        for a in views {
            for d in views {
                let expected = walkIsAncestor(a, d)
                #expect(a.isRelativeAncestor(of: d) == expected, "\(note) \(a) \(d)", sourceLocation: sourceLocation)
                #expect(d.isRelativeDescendant(of: a) == expected, "\(note) \(d) \(a)", sourceLocation: sourceLocation)
                #expect(d.isDescendant(of: a) == (expected || a === d), "\(note) \(d) \(a)", sourceLocation: sourceLocation)
            }
        }
    }

    /// root [a [a1, a2], b [b1]], tags 1...6.
    func makeTree() -> [View] {
        let views = (1 ... 6).map { i -> View in
            let v = View()
            v.tag = i
            return v
        }
        let (root, a, a1, a2, b, b1) = (views[0], views[1], views[2], views[3], views[4], views[5])
        root.addSubview(a); a.addSubview(a1); a.addSubview(a2)
        root.addSubview(b); b.addSubview(b1)
        return views
    }

    @Test func intervalsAreReadAgainAfterAMove() {
        let views = makeTree()
        let (a, b) = (views[1], views[4])
        expectAllPairs(views, "as built")
        // a moves under b: positions change, and the views keep the old ones.
        b.addSubview(a)
        expectAllPairs(views, "after a move")
        expectAllPairs(views, "after a move, kept positions")
        // A tag change gives a new version too; the positions stay right.
        a.tag = 42
        expectAllPairs(views, "after a tag change")
        withExtendedLifetime(views) {}
    }

    @Test func aLoneViewKeepsItsTag() {
        let views = makeTree()
        let (root, a1) = (views[0], views[2])
        expectAllPairs(views)  // a1 now keeps an interval where its lone tag would be
        a1.removeFromSuperview()
        #expect(a1.tag == 3)
        #expect(!a1.isRelativeDescendant(of: root) && !root.isRelativeAncestor(of: a1))
        a1.tag = 33
        #expect(a1.tag == 33)
        root.addSubview(a1)
        #expect(a1.tag == 33)
        expectAllPairs(views, "re-added")
        #expect(a1.tag == 33)
        #expect(root.viewWithTag(33) === a1)
    }

    @Test func intervalsFollowViewsAcrossStores() {
        let first = makeTree()
        let second = makeTree()
        expectAllPairs(first + second, "two trees")
        // The smaller store moves into the larger: nodes change, both trees' views kept intervals.
        first[3].addSubview(second[0])
        expectAllPairs(first + second, "merged")
        // And back into a store of its own.
        second[0].removeFromSuperview()
        expectAllPairs(first + second, "split")
        // A lone view over the larger tree: its one-view store moves into the tree's store.
        let top = View()
        top.addSubview(first[0])
        expectAllPairs([top] + first + second, "under a new root")
    }

    @Test func intervalsAfterTheRootIsFreed() {
        weak var freed: View?
        var rest: [View] = []
        do {
            let views = makeTree()
            expectAllPairs(views, "before")
            freed = views[0]
            rest = Array(views.dropFirst())
        }
        // Nothing holds the root any more: it is freed, and its subviews become roots.
        #expect(freed == nil)
        #expect(rest[0].superview == nil && rest[3].superview == nil)
        expectAllPairs(rest, "after")
        expectAllPairs(rest, "after, kept positions")
    }

    @Test("random moves and queries agree with a walk", arguments: [21, 22, 23] as [UInt64])
    func randomSequence(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // 150 views: 300 tokens, so the index spans several blocks and kept positions are
        // compared through block labels too.
        var views: [View] = (0 ..< 150).map { i in
            let v = View()
            v.tag = i
            return v
        }
        for i in 1 ..< views.count {
            views[Int.random(in: 0 ..< i, using: &rng)].addSubview(views[i])
        }
        for step in 0 ..< 4_000 {
            let a = views[Int.random(in: 0 ..< views.count, using: &rng)]
            let d = views[Int.random(in: 0 ..< views.count, using: &rng)]
            let note = Comment(rawValue: "seed \(seed), step \(step)")
            switch Int.random(in: 0 ..< 100, using: &rng) {
            case 0 ..< 6:
                if a !== d && !walkIsAncestor(a, d) { d.addSubview(a) }
            case 6 ..< 8:
                a.removeFromSuperview()
            case 8 ..< 10:
                a.tag = Int.random(in: -5 ... 5, using: &rng)
            case 10 ..< 12:
                // Views come and go: a new view takes a freed slot of the arena.
                let i = Int.random(in: 0 ..< views.count, using: &rng)
                views[i].removeFromSuperview()
                views[i] = View()
                views[i].tag = step
                d.addSubview(views[i])
            default:
                let expected = walkIsAncestor(a, d)
                #expect(a.isRelativeAncestor(of: d) == expected, note)
                #expect(d.isRelativeDescendant(of: a) == expected, note)
                #expect(d.isDescendant(of: a) == (expected || a === d), note)
            }
        }
        expectAllPairs(views, "end of seed \(seed)")
    }
}
