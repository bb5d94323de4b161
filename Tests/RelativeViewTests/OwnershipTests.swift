import Testing
@testable import RelativeView
import RelativeViewFixtures

/// UIKit ownership: a superview keeps its subviews alive, a root is kept alive only by
/// its users; freeing is iterative; live node counts follow merges, splits and frees.
@Suite struct OwnershipTests {
    /// Closure groupings take views in batches of 32: across batch edges they keep the walk's
    /// order (ancestors nearest first, siblings in order, descendants in pre-order).
    @Test(arguments: [1, 31, 32, 33, 64, 65, 100])
    func closureGroupingsKeepTheirOrderAcrossBatches(n: Int) {
        let root = View()
        var chain = [root]
        for i in 1 ... n {
            let v = View()
            v.tag = i
            chain[i - 1].addSubview(v)
            chain.append(v)
        }
        let deepest = chain[n]
        let ancestors = deepest.groupAncestors { $0.tag % 2 }
        #expect(ancestors[0]?.map(\.tag) == stride(from: n - 1, through: 0, by: -1).filter { $0 % 2 == 0 })
        #expect(ancestors[1]?.map(\.tag) ?? [] == stride(from: n - 1, through: 1, by: -1).filter { $0 % 2 == 1 })
        let parent = View()
        let children = (0 ..< n + 1).map { i -> View in
            let v = View()
            v.tag = i
            parent.addSubview(v)
            return v
        }
        let siblings = children[0].groupSiblings { $0.tag % 3 == 0 ? "three" : "other" }
        #expect(siblings["three"]?.map(\.tag) ?? [] == (1 ... n).filter { $0 % 3 == 0 })
        #expect(siblings["other"]?.map(\.tag) ?? [] == (1 ... n).filter { $0 % 3 != 0 })
        #expect(root.groupDescendants { _ in 0 }[0]?.map(\.tag) == Array(1 ... n))
    }

    /// `compactIndex()` on a view's tree changes no answer, gives back the store's spare
    /// table capacity, and keeps working after more subviews are added.
    @Test func compactIndexKeepsEveryAnswerAndTrimsTheStore() throws {
        var rng = SplitMix64(seed: 11)
        let root = View()
        var views = [root]
        for i in 1 ..< 5_000 {
            let v = i % 3 == 0 ? Button() : View()
            v.tag = i % 7
            views[Int.random(in: 0 ..< views.count, using: &rng)].addSubview(v)
            views.append(v)
        }
        let probes = (0 ..< 200).map { _ in (views.randomElement(using: &rng)!, views.randomElement(using: &rng)!) }
        let answers = probes.map { $0.0.isRelativeAncestor(of: $0.1) }
        let groups = root.groupDescendants(by: [1, 3]).mapValues { $0.map(ObjectIdentifier.init) }
        let store = try #require(root._store)
        // Spare capacity, whatever the allocator's rounding left.
        store.views.reserveCapacity(2 * store.views.count)
        #expect(store.views.capacity - store.views.count > store.views.count / 8)
        root.compactIndex()
        #expect(store.views.capacity - store.views.count <= store.views.count / 8)
        // Every view keeps its new positions, at the tree's new version: the queries below
        // take the fast path (two views read), and still answer as the superview chain does.
        let tree = store.tree._unowned
        #expect(views.allSatisfy { $0._spanVersion == tree.version && $0._tagOrSpan == tree.span(of: $0._node).span })
        #expect(probes.map { $0.0.isRelativeAncestor(of: $0.1) } == answers)
        #expect(answers == probes.map { pair in
            sequence(first: pair.1, next: \.superview).dropFirst().contains { $0 === pair.0 }
        })
        #expect(probes.map { $0.1.isRelativeDescendant(of: $0.0) } == answers)
        #expect(root.groupDescendants(by: [1, 3]).mapValues { $0.map(ObjectIdentifier.init) } == groups)
        let late = View()
        views[17].addSubview(late)
        #expect(late.isRelativeDescendant(of: root) && late.superview === views[17])
        View().compactIndex()  // a view with no tree: nothing to do
    }

    @Test func superviewKeepsSubviewsAlive() {
        let root = View()
        weak var child: View?
        weak var grandchild: View?
        do {
            let c = Button(), g = Label()
            root.addSubview(c)
            c.addSubview(g)
            child = c
            grandchild = g
        }
        #expect(child != nil)
        #expect(grandchild != nil)
        #expect(child?.superview === root)
        #expect(grandchild?.superview === child)
        #expect(root.recursiveSubviews.count == 2)
        #expect(root._store?.tree.count == 3)
    }

    @Test func droppingTheRootFreesTheWholeTree() {
        weak var root: View?
        var weakViews: [WeakBox] = []
        do {
            let r = View()
            root = r
            weakViews.append(WeakBox(r))
            var parents = [r]
            for i in 0 ..< 30 {
                let v: View = i.isMultiple(of: 2) ? Button() : View()
                parents[i / 3].addSubview(v)
                parents.append(v)
                weakViews.append(WeakBox(v))
            }
            #expect(r._store?.tree.count == 31)
        }
        #expect(root == nil)
        #expect(weakViews.allSatisfy { $0.view == nil })
    }

    @Test func aReferencedGrandchildSurvivesItsAncestors() throws {
        weak var weakRoot: View?
        weak var weakChild: View?
        weak var weakSibling: View?
        let grandchild = Label()
        grandchild.tag = 3
        weak var weakGreat: View?
        weak var weakGreat2: View?
        do {
            let root = View(), child = View(), sibling = View()
            let great = Button(), great2 = View()
            root.addSubview(child)
            root.addSubview(sibling)
            child.addSubview(grandchild)
            grandchild.addSubview(great)
            great.addSubview(great2)
            great.tag = 4
            weakRoot = root; weakChild = child; weakSibling = sibling
            weakGreat = great; weakGreat2 = great2
            #expect(root._store?.tree.count == 6)
        }
        #expect(weakRoot == nil)
        #expect(weakChild == nil)
        #expect(weakSibling == nil)
        #expect(grandchild.superview == nil)
        let great = try #require(weakGreat)
        let great2 = try #require(weakGreat2)
        #expect(grandchild.subviews == [great])
        #expect(great.subviews == [great2])
        #expect(great2.superview === great)
        #expect(grandchild.recursiveSubviews == [great, great2])
        #expect(grandchild.isRelativeAncestor(of: great2))
        #expect(great2.findFirstAncestor(by: [4]) === great)
        #expect(great2.groupAncestors(by: [3, 4]) == [4: [great], 3: [grandchild]])
        #expect(grandchild.tag == 3)
        #expect(grandchild._store?.tree.count == 3)
        #expect(great2._store === grandchild._store)
    }

    @Test func referencedLeafSurvivesAsALoneView() {
        let leaf = View()
        leaf.tag = 12
        let leaf2 = Button()
        weak var weakRoot: View?
        do {
            let root = View(), mid = View()
            root.addSubview(mid)
            mid.addSubview(leaf)
            root.addSubview(leaf2)
            weakRoot = root
        }
        #expect(weakRoot == nil)
        #expect(leaf.superview == nil)
        #expect(leaf2.superview == nil)
        #expect(leaf.tag == 12)
        #expect(leaf._store == nil)
        #expect(leaf2._store == nil)
        #expect(!leaf.isRelativeSibling(of: leaf2))
        // Still usable.
        leaf.addSubview(leaf2)
        #expect(leaf2.superview === leaf)
        #expect(leaf._store?.tree.count == 2)
    }

    @Test func survivorsInSeveralBranchesBecomeSeparateRoots() {
        let s1 = View(), s2 = View(), s3 = View()
        weak var w1: View?, w2: View?
        do {
            let root = View(), a = View(), b = View()
            root.addSubview(a); root.addSubview(b)
            a.addSubview(s1); b.addSubview(s2); b.addSubview(s3)
            let c1 = View(), c2 = View()
            s1.addSubview(c1); s2.addSubview(c2)
            w1 = c1; w2 = c2
        }
        #expect(s1.superview == nil && s2.superview == nil && s3.superview == nil)
        #expect(w1?.superview === s1)
        #expect(w2?.superview === s2)
        #expect(s1._store !== s2._store)
        #expect(s1._store?.tree.count == 2)
        #expect(s2._store?.tree.count == 2)
        #expect(s3._store == nil)
        #expect(!s1.isRelativeSibling(of: s2))
        #expect(!s2.isRelativeAncestor(of: s1.subviews[0]))
    }

    @Test func removeFromSuperviewFreesAnUnreferencedViewAtOnce() {
        let root = View()
        weak var w: View?
        weak var wChild: View?
        do {
            let v = View()
            root.addSubview(v)
            let c = View()
            v.addSubview(c)
            w = v
            wChild = c
        }
        #expect(w != nil)
        w?.removeFromSuperview()
        #expect(w == nil)
        #expect(wChild == nil)
        #expect(root.subviews.isEmpty)

        // The same for a leaf, and for a view whose subtree is larger than the rest.
        weak var leaf: View?
        do { let v = View(); root.addSubview(v); leaf = v }
        leaf?.removeFromSuperview()
        #expect(leaf == nil)
        weak var big: View?
        var bigChildren: [WeakBox] = []
        do {
            let v = View()
            root.addSubview(v)
            for _ in 0 ..< 10 { let c = View(); v.addSubview(c); bigChildren.append(WeakBox(c)) }
            big = v
        }
        big?.removeFromSuperview()
        #expect(big == nil)
        #expect(bigChildren.allSatisfy { $0.view == nil })
        #expect(root.subviews.isEmpty)
    }

    @Test func noRetainCycles() {
        var boxes: [WeakBox] = []
        do {
            let root = View()
            var all = [root]
            // A mix of moves, reorders, merges and splits inside the scope.
            for i in 0 ..< 50 {
                let v: View = [View(), Button(), Label(), ImageView(image: Image(named: "x"))][i % 4]
                all[(i * 7) % all.count].addSubview(v)
                all.append(v)
            }
            all[3].addSubview(all[40])
            root.exchangeSubview(at: 0, withSubviewAt: root.subviews.count - 1)
            all[10].removeFromSuperview()
            let other = View()
            other.addSubview(all[10])
            root.addSubview(other)
            _ = root.groupDescendants(by: [View.self])
            _ = all[45].groupAncestors(by: { $0.tag })
            boxes = all.map(WeakBox.init) + [WeakBox(other)]
        }
        #expect(boxes.count == 52)
        #expect(boxes.allSatisfy { $0.view == nil })
    }

    /// A view held only by a stored property of a view that is being freed.
    final class Holder: View {
        var held: View?
    }

    @Test func viewsHeldByFreedViewsAreFreedToo() {
        weak var wHolder: View?, wHeld: View?, wHeldChild: View?, wOther: View?
        do {
            let root = View(), holder = Holder(), x = View(), held = View(), heldChild = View()
            root.addSubview(holder)
            root.addSubview(x)
            x.addSubview(held)
            held.addSubview(heldChild)
            holder.held = held
            // And one that holds a view of an unrelated tree.
            let other = View()
            other.addSubview(View())
            let holder2 = Holder()
            holder2.held = other
            heldChild.addSubview(holder2)
            wHolder = holder; wHeld = held; wHeldChild = heldChild; wOther = other
        }
        #expect(wHolder == nil)
        #expect(wHeld == nil)
        #expect(wHeldChild == nil)
        #expect(wOther == nil)
    }

    @Test func viewsHeldByFreedViewsSurviveWhileReferenced() throws {
        let keep = View()
        weak var wHeld: View?
        do {
            let root = View(), holder = Holder(), held = View()
            root.addSubview(holder)
            root.addSubview(held)
            held.addSubview(keep)
            holder.held = held
            wHeld = held
        }
        // held was freed with its holder; keep, referenced here, survives as a root.
        #expect(wHeld == nil)
        #expect(keep.superview == nil)
        #expect(keep._store == nil)
    }

    @Test func buttonsTitleLabelIsFreedWithTheButton() {
        weak var title: Label?
        do {
            let root = View(), button = Button()
            button.setTitle("OK")
            root.addSubview(button)
            title = button.titleLabel
        }
        #expect(title == nil)
    }

    // MARK: Live node counts

    @Test func liveCountsFollowMergesSplitsAndFrees() {
        let a = View(), b = View()
        #expect(a._store == nil)
        a.addSubview(b)
        #expect(a._store?.tree.count == 2)
        #expect(a._store === b._store)
        // Merge a 3-view tree into the 2-view tree.
        let c = View(), d = View(), e = View()
        c.addSubview(d); c.addSubview(e)
        #expect(c._store?.tree.count == 3)
        b.addSubview(c)
        #expect(a._store?.tree.count == 5)
        #expect(a._store === e._store)
        // Split a subtree: both sides count their own views.
        c.removeFromSuperview()
        #expect(a._store?.tree.count == 2)
        #expect(c._store?.tree.count == 3)
        #expect(a._store !== c._store)
        // Free a referenced subtree's unreferenced member.
        weak var wd: View?
        do { let x = View(); d.addSubview(x); wd = x }
        #expect(c._store?.tree.count == 4)
        wd?.removeFromSuperview()
        #expect(wd == nil)
        #expect(c._store?.tree.count == 3)
        // Grow and then free a subtree that nobody references.
        do {
            let t = View()
            for _ in 0 ..< 7 { t.addSubview(View()) }
            a.addSubview(t)
        }
        #expect(a._store?.tree.count == 10)
        a.subviews.last?.removeFromSuperview()
        #expect(a._store?.tree.count == 2)
        #expect(a.subviews == [b])
    }

    @Test func slotsAreRecycledAfterFrees() throws {
        // The root's tree stays the larger one, so each added subtree is merged into its
        // arena and each removal frees slots there, which the next merge reuses.
        let root = View()
        for _ in 0 ..< 30 { root.addSubview(View()) }
        for round in 0 ..< 5 {
            weak var weakT: View?
            do {
                let t = View()
                for _ in 0 ..< 20 { t.addSubview(View()) }
                root.addSubview(t)
                weakT = t
            }
            #expect(root._store?.tree.count == 52, "round \(round)")
            weakT?.removeFromSuperview()
            #expect(weakT == nil, "round \(round)")
            #expect(root._store?.tree.count == 31, "round \(round)")
            #expect(root.subviews.count == 30, "round \(round)")
        }
        let store = try #require(root._store)
        #expect(store.tree.slotCount <= 52)
        store.tree._checkInvariants()
    }

    @Test func movingASubtreeBetweenTreesUpdatesBothCounts() {
        let left = View(), right = View()
        let moving = View()
        for _ in 0 ..< 4 { left.addSubview(View()) }
        left.addSubview(moving)
        for _ in 0 ..< 3 { moving.addSubview(View()) }       // left: 1 + 4 + 1 + 3 = 9
        for _ in 0 ..< 2 { right.addSubview(View()) }        // right: 3
        #expect(left._store?.tree.count == 9)
        #expect(right._store?.tree.count == 3)
        right.subviews[1].addSubview(moving)
        #expect(left._store?.tree.count == 5)
        #expect(right._store?.tree.count == 7)
        #expect(moving._store === right._store)
        #expect(moving.subviews.allSatisfy { $0._store === right._store })
        // And back, under the root directly.
        left.insertSubview(moving, at: 0)
        #expect(left._store?.tree.count == 9)
        #expect(right._store?.tree.count == 3)
        #expect(left.subviews.first === moving)
        // Moving a whole (larger) root tree under a leaf of a smaller tree.
        let tiny = View(), tinyLeaf = View()
        tiny.addSubview(tinyLeaf)
        tinyLeaf.addSubview(left)
        #expect(tiny._store?.tree.count == 11)
        #expect(left._store === tiny._store)
        #expect(right._store?.tree.count == 3)
        #expect(tiny.recursiveSubviews.count == 10)
    }

    @Test func liveCountAfterDroppingTheRootWithSurvivors() throws {
        let keep = View()
        do {
            let root = View(), mid = View()
            root.addSubview(mid)
            mid.addSubview(keep)
            for _ in 0 ..< 5 { keep.addSubview(View()) }
            for _ in 0 ..< 5 { mid.addSubview(View()) }
            #expect(root._store?.tree.count == 13)
        }
        #expect(keep.superview == nil)
        #expect(keep._store?.tree.count == 6)
        #expect(keep.subviews.count == 5)
        keep._store?.tree._checkInvariants()
    }

    /// A freed root's surviving subviews each become a root of their own tree. The one with
    /// the largest tree keeps the store (moving a tree costs its size), wherever it is among
    /// the subviews; the others move to stores of their own, with their subtrees, and keep
    /// answering queries.
    @Test(arguments: [0, 1, 2])
    func theLargestSurvivorOfAFreedRootKeepsTheStore(largestAt position: Int) throws {
        var survivors: [View] = []
        var store: ViewStore?
        do {
            let root = View()
            for i in 0 ..< 3 {
                let child = View()
                child.tag = i
                root.addSubview(child)
                var last = child
                for _ in 0 ..< (i == position ? 40 : 3 + i) {
                    let v = View()
                    last.addSubview(v)
                    last = v
                }
                survivors.append(child)
            }
            store = root._store
        }
        let kept = try #require(store)
        for (i, child) in survivors.enumerated() {
            #expect(child.superview == nil)
            #expect((child._store === kept) == (i == position), "survivor \(i), largest at \(position)")
            let size = (i == position ? 40 : 3 + i) + 1
            #expect(child._store?.tree.count == size)
            #expect(child.groupDescendants { _ in 0 }[0]?.count == size - 1)
            child._store?.tree._checkInvariants()
        }
    }

    // MARK: Deep chains

    @Test func freeingAHundredThousandDeepChainDoesNotRecurse() {
        weak var deepest: View?
        weak var weakRoot: View?
        do {
            let root = View()
            var last = root
            for _ in 0 ..< 100_000 {
                let v = View()
                last.addSubview(v)
                last = v
            }
            deepest = last
            weakRoot = root
            #expect(root._store?.tree.count == 100_001)
        }
        #expect(weakRoot == nil)
        #expect(deepest == nil)
    }

    @Test func freeingADeepChainKeepsAReferencedMiddle() {
        weak var deepest: View?
        let middle: View
        do {
            let root = View()
            var last = root
            var chain: [View] = []
            for _ in 0 ..< 100_000 {
                let v = View()
                last.addSubview(v)
                last = v
                chain.append(v)
            }
            middle = chain[50_000]
            deepest = last
        }
        #expect(middle.superview == nil)
        #expect(deepest != nil)
        #expect(middle._store?.tree.count == 50_000)
        #expect(deepest.map { middle.isRelativeAncestor(of: $0) } == true)
    }
}

/// A weak reference in an array.
final class WeakBox {
    weak var view: View?
    init(_ view: View) { self.view = view }
}
