import Testing
@testable import RelativeView
import RelativeViewFixtures

/// The `addSubview` family, `removeFromSuperview`, reordering, tags, build orders, and
/// queries interleaved with mutations (the index goes stale and is rebuilt lazily).
@Suite struct MutationTests {
    static let sizes = [0, 1, 2, 10, 100]

    /// `parent` with `n` fresh subviews, tagged 0 ..< n.
    static func wide(_ n: Int) -> (parent: View, children: [View]) {
        let parent = View()
        let children = (0 ..< n).map { i -> View in
            let v = View()
            v.tag = i
            parent.addSubview(v)
            return v
        }
        return (parent, children)
    }

    // MARK: addSubview

    @Test func addSubviewAppends() {
        let (parent, kids) = Self.wide(3)
        #expect(parent.subviews == kids)
        for k in kids { #expect(k.superview === parent) }
        #expect(parent.superview == nil)
    }

    @Test(arguments: sizes)
    func reAddingMovesToTheEnd(n: Int) {
        let (parent, kids) = Self.wide(n)
        guard n > 0 else {
            #expect(parent.subviews.isEmpty)
            return
        }
        parent.addSubview(kids[0])
        #expect(parent.subviews == Array(kids.dropFirst()) + [kids[0]])
        #expect(parent.subviews.count == n)
        parent.addSubview(kids[0])  // already last: unchanged
        #expect(parent.subviews == Array(kids.dropFirst()) + [kids[0]])
        #expect(kids[0].superview === parent)
        #expect(parent._store?.tree.count == n + 1)
        #expect(parent.groupDescendants(by: [0]) == [0: [kids[0]]])
    }

    @Test func addingAViewFromAnotherTreeMovesIt() {
        let left = View(), right = View()
        let moving = Button(), child = Label(), stay = View()
        left.addSubview(stay)
        left.addSubview(moving)
        moving.addSubview(child)
        let other = View()
        right.addSubview(other)
        #expect(left._store?.tree.count == 4)
        #expect(right._store?.tree.count == 2)

        right.addSubview(moving)
        #expect(moving.superview === right)
        #expect(left.subviews == [stay])
        #expect(right.subviews == [other, moving])
        #expect(moving.subviews == [child])
        #expect(child.superview === moving)
        #expect(right.recursiveSubviews == [other, moving, child])
        #expect(!left.isRelativeAncestor(of: child))
        #expect(right.isRelativeAncestor(of: child))
        #expect(child.findFirstAncestor(by: [View.self]) === right)
        #expect(left._store?.tree.count == 2)
        #expect(right._store?.tree.count == 4)
        #expect(moving.isRelativeSibling(of: other))
        #expect(!moving.isRelativeSibling(of: stay))
    }

    @Test func addingAViewFromALargerTreeMovesIt() {
        // The child's tree is larger than the parent's, so the parent's side is merged into it.
        let big = View()
        var last = big
        for _ in 0 ..< 20 { let v = View(); last.addSubview(v); last = v }
        let small = View()
        small.addSubview(last)
        #expect(last.superview === small)
        #expect(small.subviews == [last])
        #expect(big._store?.tree.count == 20)
        #expect(small._store?.tree.count == 2)
        #expect(small._store === last._store)
        #expect(!big.isRelativeAncestor(of: last))
        // A whole root tree moved under a lone view.
        let lone = View()
        lone.addSubview(big)
        #expect(lone._store?.tree.count == 21)
        #expect(big.superview === lone)
        #expect(lone.recursiveSubviews.count == 20)
    }

    // MARK: insertSubview

    @Test(arguments: sizes)
    func insertAtEveryIndex(n: Int) {
        for index in 0 ... n {
            let (parent, kids) = Self.wide(n)
            let new = Label()
            parent.insertSubview(new, at: index)
            var expected: [View] = kids
            expected.insert(new, at: index)
            #expect(parent.subviews == expected, "n \(n) index \(index)")
            #expect(new.superview === parent)
        }
    }

    @Test(arguments: sizes.filter { $0 > 0 })
    func insertIndexIsCountedAfterRemoval(n: Int) {
        // Move each subview to each index: the index is among the other n - 1 subviews.
        for from in 0 ..< n {
            for to in 0 ..< n {
                let (parent, kids) = Self.wide(n)
                parent.insertSubview(kids[from], at: to)
                var expected = kids
                let moved = expected.remove(at: from)
                expected.insert(moved, at: to)
                #expect(parent.subviews == expected, "n \(n) from \(from) to \(to)")
                if n > 10 { break }  // keep the sweep small for 100
            }
        }
    }

    @Test func insertAtFromAnotherTree() {
        let (parent, kids) = Self.wide(3)
        let otherParent = View()
        let v = View()
        otherParent.addSubview(v)
        parent.insertSubview(v, at: 1)
        #expect(parent.subviews == [kids[0], v, kids[1], kids[2]])
        #expect(otherParent.subviews.isEmpty)
        #expect(otherParent._store?.tree.count ?? 1 == 1)
        #expect(parent._store?.tree.count == 5)
    }

    @Test func insertAboveAndBelow() {
        let (parent, kids) = Self.wide(4)
        let x = View(), y = View()
        parent.insertSubview(x, aboveSubview: kids[1])
        #expect(parent.subviews == [kids[0], kids[1], x, kids[2], kids[3]])
        parent.insertSubview(y, belowSubview: kids[0])
        #expect(parent.subviews == [y, kids[0], kids[1], x, kids[2], kids[3]])
        // Above the last appends; below the first prepends.
        let z = View()
        parent.insertSubview(z, aboveSubview: kids[3])
        #expect(parent.subviews.last === z)
        // Moving an existing subview.
        parent.insertSubview(kids[3], belowSubview: y)
        #expect(parent.subviews == [kids[3], y, kids[0], kids[1], x, kids[2], z])
        parent.insertSubview(kids[3], aboveSubview: z)
        #expect(parent.subviews == [y, kids[0], kids[1], x, kids[2], z, kids[3]])
        parent.insertSubview(y, aboveSubview: kids[0])
        #expect(parent.subviews == [kids[0], y, kids[1], x, kids[2], z, kids[3]])
        parent.insertSubview(y, belowSubview: kids[1])  // already there
        #expect(parent.subviews == [kids[0], y, kids[1], x, kids[2], z, kids[3]])
        // Relative to itself: no effect.
        parent.insertSubview(x, aboveSubview: x)
        parent.insertSubview(x, belowSubview: x)
        #expect(parent.subviews == [kids[0], y, kids[1], x, kids[2], z, kids[3]])
        // From another tree.
        let elsewhere = View(), w = Button()
        elsewhere.addSubview(w)
        parent.insertSubview(w, belowSubview: x)
        #expect(parent.subviews == [kids[0], y, kids[1], w, x, kids[2], z, kids[3]])
        #expect(elsewhere.subviews.isEmpty)
        #expect(parent.groupDescendants(by: [Button.self]) == ["Button": [w]])
        #expect(parent._store?.tree.count == 9)
    }

    @Test func insertNextToASiblingFromALargerTree() {
        // The inserted view's tree is larger, so the parent's tree moves into its arena;
        // the sibling must still be found.
        let (parent, kids) = Self.wide(3)
        let bigRoot = View(), moving = Label()
        for _ in 0 ..< 10 { bigRoot.addSubview(View()) }
        bigRoot.addSubview(moving)
        for _ in 0 ..< 10 { moving.addSubview(View()) }
        parent.insertSubview(moving, belowSubview: kids[1])
        #expect(parent.subviews == [kids[0], moving, kids[1], kids[2]])
        #expect(moving.subviews.count == 10)
        #expect(parent._store?.tree.count == 15)
        #expect(bigRoot._store?.tree.count == 11)
        #expect(parent.groupDescendants(by: [Label.self]) == ["Label": [moving]])
        let other = View()
        for _ in 0 ..< 30 { other.addSubview(View()) }
        let lone = Button()
        other.addSubview(lone)
        parent.insertSubview(lone, aboveSubview: kids[2])
        #expect(parent.subviews == [kids[0], moving, kids[1], kids[2], lone])
        parent.insertSubview(other.subviews[0], at: 0)
        #expect(parent.subviews.count == 6)
        #expect(other.subviews.count == 29)
        #expect(parent._store?.tree.count == 17)
    }

    // MARK: removeFromSuperview

    @Test func removeFromSuperview() {
        let (parent, kids) = Self.wide(3)
        let grandchild = View()
        grandchild.tag = 77
        kids[1].addSubview(grandchild)
        kids[1].removeFromSuperview()
        #expect(kids[1].superview == nil)
        #expect(parent.subviews == [kids[0], kids[2]])
        #expect(kids[1].subviews == [grandchild])
        #expect(grandchild.superview === kids[1])
        #expect(!parent.isRelativeAncestor(of: grandchild))
        #expect(parent.viewWithTag(77) == nil)
        #expect(kids[1].viewWithTag(77) === grandchild)
        #expect(!kids[1].isRelativeSibling(of: kids[0]))
        #expect(parent._store?.tree.count == 3)
        #expect(kids[1]._store?.tree.count == 2)
        #expect(kids[1].tag == 1)
        // Removing a root, or again: no effect.
        kids[1].removeFromSuperview()
        parent.removeFromSuperview()
        #expect(parent.subviews == [kids[0], kids[2]])
        // Removing the last subview leaves two lone views.
        kids[0].removeFromSuperview()
        kids[2].removeFromSuperview()
        #expect(parent.subviews.isEmpty)
        #expect(parent._store?.tree.count ?? 1 == 1)  // see loneViewsHaveNoStore
        #expect(kids[0]._store == nil)
        #expect(kids[0].tag == 0)
        #expect(kids[2].tag == 2)
    }

    @Test(arguments: sizes)
    func removeEverySubviewOfAWideTree(n: Int) {
        let (parent, kids) = Self.wide(n)
        for (i, k) in kids.enumerated() {
            k.removeFromSuperview()
            #expect(parent.subviews == Array(kids[(i + 1)...]))
            #expect(k.superview == nil)
            #expect(k.tag == i)
        }
        #expect(parent._store?.tree.count ?? 1 == 1)  // see loneViewsHaveNoStore
        #expect(parent.recursiveSubviews.isEmpty)
    }

    @Test(arguments: sizes)
    func splitAChainInTheMiddle(n: Int) {
        let chain = (0 ... n).map { i -> View in let v = View(); v.tag = i; return v }
        for i in 0 ..< n { chain[i].addSubview(chain[i + 1]) }
        #expect(chain[0].recursiveSubviews == Array(chain.dropFirst()))
        let mid = (n + 1) / 2
        chain[mid].removeFromSuperview()
        #expect(chain[mid].superview == nil)
        #expect(chain[0].recursiveSubviews == Array(chain[1 ..< max(mid, 1)]))
        #expect(chain[mid].recursiveSubviews == Array(chain[(mid + 1)...]))
        #expect(chain.last!.findFirstAncestor { $0.superview == nil } === (n == mid ? nil : chain[mid]))
        #expect(chain[mid].groupDescendants(by: [n]) == (n > mid ? [n: [chain[n]]] : [:]))
        if mid > 0 { #expect(!chain[0].isRelativeAncestor(of: chain[mid])) }
    }

    /// "`view._store` is nil for a view that has neither superview nor subviews."
    @Test func loneViewsHaveNoStore() {
        // Removing the only subview: both views are alone afterwards.
        let parent = View(), child = View()
        parent.addSubview(child)
        #expect(parent._store != nil)
        child.removeFromSuperview()
        #expect(child._store == nil)
        #expect(parent._store == nil)
        // Moving the only subview to another tree: its old superview is alone.
        let oldParent = View(), moving = View(), newParent = View()
        oldParent.addSubview(moving)
        newParent.addSubview(moving)
        #expect(oldParent._store == nil)
        #expect(newParent._store?.tree.count == 2)
        // The same when the removed view has subviews of its own (no tie).
        let p2 = View(), c2 = View()
        p2.addSubview(c2)
        c2.addSubview(View())
        c2.removeFromSuperview()
        #expect(p2._store == nil)
        #expect(c2._store?.tree.count == 2)
    }

    // MARK: Reordering

    @Test(arguments: sizes)
    func bringToFrontAndSendToBack(n: Int) {
        let (parent, kids) = Self.wide(n)
        var expected = kids
        for i in stride(from: 0, to: n, by: max(1, n / 7)) {
            parent.bringSubviewToFront(kids[i])
            expected.removeAll { $0 === kids[i] }
            expected.append(kids[i])
            #expect(parent.subviews == expected)
            #expect(parent.subviews.last === kids[i])
        }
        for i in stride(from: n - 1, through: 0, by: -max(1, n / 5)) {
            parent.sendSubviewToBack(kids[i])
            expected.removeAll { $0 === kids[i] }
            expected.insert(kids[i], at: 0)
            #expect(parent.subviews == expected)
            #expect(parent.subviews.first === kids[i])
        }
        // Not a subview: no effect.
        let stranger = View()
        parent.bringSubviewToFront(stranger)
        parent.sendSubviewToBack(stranger)
        #expect(parent.subviews == expected)
        #expect(stranger.superview == nil)
        if n > 0 {
            let grandchild = View()
            kids[0].addSubview(grandchild)
            parent.bringSubviewToFront(grandchild)
            #expect(parent.subviews == expected)
            #expect(grandchild.superview === kids[0])
        }
        // The descendants follow the new order.
        #expect(parent.groupDescendants(by: { $0.superview === parent ? 0 : nil })[0] ?? [] == expected)
    }

    /// A grouping's closure that adds views to the tree it walks: the walk goes on over the
    /// tree as it was when the grouping began (its columns are not changed under it), so
    /// every view that was a descendant then is visited once, in that pre-order, and none
    /// of the new ones. (A closure that removes a view the walk has yet to reach traps,
    /// naming the cause: see `ViewStore.view(slot:)`.)
    @Test func aGroupingClosureThatAddsViewsSeesTheTreeAsItWas() {
        let (parent, kids) = Self.wide(40)
        for k in kids { for _ in 0 ..< 3 { k.addSubview(View()) } }
        var before: [View] = []
        func preOrder(_ v: View) { for c in v.subviews { before.append(c); preOrder(c) } }
        preOrder(parent)
        var visited: [View] = []
        let groups = parent.groupDescendants(by: { (v: View) -> Int? in
            visited.append(v)
            // Grow the tree under the walk: new slots, new blocks of the index.
            for _ in 0 ..< 20 { v.addSubview(View()) }
            return v.tag % 2
        })
        #expect(visited.map(ObjectIdentifier.init) == before.map(ObjectIdentifier.init))
        #expect((groups[0] ?? []).count + (groups[1] ?? []).count == before.count)
        #expect(parent.recursiveSubviews.count == before.count * 21)
        // Ancestors likewise.
        let leaf = kids[5].subviews[0]
        var seen: [View] = []
        let found = leaf.findFirstAncestor(by: { (v: View) -> Bool in
            seen.append(v)
            for _ in 0 ..< 20 { v.insertSubview(View(), at: 0) }
            return false
        })
        #expect(found == nil)
        #expect(seen.map(ObjectIdentifier.init) == [kids[5], parent].map(ObjectIdentifier.init))
    }

    @Test func exchangeSubviews() {
        let pairs = [(0, 1), (1, 0), (0, 4), (4, 0), (1, 3), (3, 1), (2, 2), (0, 2), (2, 4), (3, 4), (4, 3)]
        for (i, j) in pairs {
            let (parent, kids) = Self.wide(5)
            for k in kids { let g = View(); g.tag = 100; k.addSubview(g) }  // subtrees travel with their roots
            parent.exchangeSubview(at: i, withSubviewAt: j)
            var expected = kids
            expected.swapAt(i, j)
            #expect(parent.subviews == expected, "exchange \(i) \(j)")
            #expect(parent.groupDescendants(by: [0, 1, 2, 3, 4]).mapValues { $0.count } == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])
            #expect(parent.recursiveSubviews == expected + expected.map { $0.subviews[0] })
        }
        // Two subviews only.
        let (parent, kids) = Self.wide(2)
        parent.exchangeSubview(at: 1, withSubviewAt: 0)
        #expect(parent.subviews == [kids[1], kids[0]])
        parent.exchangeSubview(at: 0, withSubviewAt: 1)
        #expect(parent.subviews == kids)
    }

    @Test(arguments: sizes.filter { $0 > 0 })
    func exchangeEveryPair(n: Int) {
        let (parent, kids) = Self.wide(n)
        var expected = kids
        let step = max(1, n / 10)
        for i in stride(from: 0, to: n, by: step) {
            for j in stride(from: 0, to: n, by: step) {
                parent.exchangeSubview(at: i, withSubviewAt: j)
                expected.swapAt(i, j)
                #expect(parent.subviews == expected, "n \(n) exchange \(i) \(j)")
            }
        }
        #expect(parent.groupDescendants(by: [View.self])["View"] == expected)
    }

    // MARK: Tags

    @Test func tagSetBeforeAndAfterAdding() {
        let parent = View()
        let before = View()
        before.tag = 10
        parent.addSubview(before)
        #expect(before.tag == 10)
        let after = View()
        parent.addSubview(after)
        after.tag = 20
        #expect(after.tag == 20)
        #expect(parent.groupDescendants(by: [10, 20]) == [10: [before], 20: [after]])
        #expect(parent.viewWithTag(20) === after)
        before.tag = 20
        #expect(parent.groupDescendants(by: [10, 20]) == [20: [before, after]])
        #expect(parent.viewWithTag(20) === before)
        parent.tag = 5
        #expect(before.findFirstAncestor(by: [5]) === parent)
        #expect(parent.tag == 5)
        // A parent's tag set while it was lone, then kept through adoption and a split.
        let lone = View()
        lone.tag = 33
        let leaf = View()
        lone.addSubview(leaf)
        #expect(lone.tag == 33)
        #expect(leaf.groupAncestors(by: [33]) == [33: [lone]])
        leaf.removeFromSuperview()
        #expect(lone.tag == 33)
        #expect(leaf.tag == 0)
        // Tags survive merging stores (both directions).
        let big = View()
        for _ in 0 ..< 5 { big.addSubview(View()) }
        big.subviews[2].tag = 44
        lone.addSubview(big)       // the larger tree absorbs the smaller one
        #expect(lone.tag == 33)
        #expect(lone.viewWithTag(44) === big.subviews[2])
        #expect(lone.groupDescendants(by: [44, 33]) == [44: [big.subviews[2]]])
    }

    // MARK: Build order

    /// A description of a tree: for each view (in creation order), its parent index, type and tag.
    struct Shape {
        var parents: [Int?]
        var kinds: [Int]
        static func random(count: Int, seed: UInt64) -> Shape {
            var rng = SplitMix64(seed: seed)
            var parents: [Int?] = [nil]
            var kinds = [0]
            for i in 1 ..< max(count, 1) {
                parents.append(Int(rng.next() % UInt64(i)))
                kinds.append(Int(rng.next() % 3))
            }
            return Shape(parents: parents, kinds: kinds)
        }
        func makeViews() -> [View] {
            kinds.enumerated().map { i, k in
                let v: View = k == 0 ? View() : k == 1 ? Button() : Label()
                v.tag = i % 5
                return v
            }
        }
        func children(of i: Int) -> [Int] { parents.indices.filter { parents[$0] == i } }
    }

    @Test(arguments: [1, 2, 10, 100])
    func bottomUpAndTopDownBuildsAgree(n: Int) {
        let seed: UInt64 = 0xB0770 &+ UInt64(n)
        let shape = Shape.random(count: n, seed: seed)
        // Top-down: attach each view under its (already attached) parent, in creation order.
        let top = shape.makeViews()
        for i in 1 ..< n { top[shape.parents[i]!].addSubview(top[i]) }
        // Bottom-up: the deepest subtrees are finished first, then attached to their parents.
        let bottom = shape.makeViews()
        for i in (1 ..< max(n, 1)).reversed() {
            // Attach i's children, in order, before i joins its own parent.
            for c in shape.children(of: i) { bottom[i].addSubview(bottom[c]) }
        }
        for c in shape.children(of: 0) { bottom[0].addSubview(bottom[c]) }
        let index: (View, [View]) -> Int = { v, all in all.firstIndex { $0 === v }! }
        for i in 0 ..< n {
            let ctx = "n \(n) seed \(seed) view \(i)"
            #expect(top[i].subviews.map { index($0, top) } == bottom[i].subviews.map { index($0, bottom) }, "\(ctx)")
            #expect(top[i].recursiveSubviews.map { index($0, top) } == bottom[i].recursiveSubviews.map { index($0, bottom) }, "\(ctx)")
            #expect(top[i].groupDescendants(by: [0, 1, 2, 3, 4]).mapValues { $0.map { index($0, top) } }
                    == bottom[i].groupDescendants(by: [0, 1, 2, 3, 4]).mapValues { $0.map { index($0, bottom) } }, "\(ctx)")
            #expect(top[i].groupDescendants(by: [View.self, Button.self, Label.self]).mapValues { $0.map { index($0, top) } }
                    == bottom[i].groupDescendants(by: [View.self, Button.self, Label.self]).mapValues { $0.map { index($0, bottom) } }, "\(ctx)")
            #expect(top[i].groupAncestors(by: [0, 1, 2, 3, 4]).mapValues { $0.map { index($0, top) } }
                    == bottom[i].groupAncestors(by: [0, 1, 2, 3, 4]).mapValues { $0.map { index($0, bottom) } }, "\(ctx)")
            #expect(top[i].groupSiblings(by: [View.self, Button.self, Label.self]).mapValues { $0.map { index($0, top) } }
                    == bottom[i].groupSiblings(by: [View.self, Button.self, Label.self]).mapValues { $0.map { index($0, bottom) } }, "\(ctx)")
            #expect(top[i].superview.map { index($0, top) } == shape.parents[i], "\(ctx)")
            #expect(bottom[i].superview.map { index($0, bottom) } == shape.parents[i], "\(ctx)")
        }
        #expect(top[0].recursiveSubviews.count == n - 1)
        #expect(top[0]._store?.tree.count ?? 1 == n)
        #expect(bottom[0]._store?.tree.count ?? 1 == n)
    }

    @Test(arguments: sizes)
    func chainsBuiltBothWaysAgree(n: Int) {
        let topDown = (0 ... n).map { i -> View in let v = View(); v.tag = i; return v }
        for i in 0 ..< n { topDown[i].addSubview(topDown[i + 1]) }
        let bottomUp = (0 ... n).map { i -> View in let v = View(); v.tag = i; return v }
        for i in (0 ..< n).reversed() { bottomUp[i].addSubview(bottomUp[i + 1]) }
        #expect(topDown[0].recursiveSubviews.map(\.tag) == Array(1 ... max(n, 1)).prefix(n).map { $0 })
        #expect(bottomUp[0].recursiveSubviews.map(\.tag) == topDown[0].recursiveSubviews.map(\.tag))
        #expect(bottomUp[n].groupAncestors(by: { $0.tag % 2 }).mapValues { $0.map(\.tag) }
                == topDown[n].groupAncestors(by: { $0.tag % 2 }).mapValues { $0.map(\.tag) })
        #expect(bottomUp[0]._store?.tree.count ?? 1 == n + 1)
        if n > 0 {
            #expect(bottomUp[0].isRelativeAncestor(of: bottomUp[n]))
            #expect(bottomUp[n].findFirstAncestor(by: [0]) === bottomUp[0])
            #expect(bottomUp[0].groupDescendants(by: [n]) == [n: [bottomUp[n]]])
        }
    }

    // MARK: Queries interleaved with mutations

    @Test func queriesStayCorrectAfterInterleavedMutations() {
        let root = View(), a = View(), b = View(), c = View()
        root.addSubview(a); root.addSubview(b); b.addSubview(c)
        c.tag = 1
        #expect(root.groupDescendants(by: [1]) == [1: [c]])
        #expect(root.isRelativeAncestor(of: c))
        // Query many times so the index is rebuilt, then mutate.
        for _ in 0 ..< 10 { #expect(root.isRelativeAncestor(of: c)) }
        a.addSubview(c)
        #expect(!b.isRelativeAncestor(of: c))
        #expect(a.isRelativeAncestor(of: c))
        #expect(c.findFirstAncestor { _ in true } === a)
        for _ in 0 ..< 10 { #expect(c.isRelativeDescendant(of: a)) }
        b.tag = 1
        #expect(root.groupDescendants(by: [1]) == [1: [a, c, b].filter { $0.tag == 1 }])
        #expect(root.groupDescendants(by: [1]) == [1: [c, b]])
        root.exchangeSubview(at: 0, withSubviewAt: 1)
        #expect(root.groupDescendants(by: [1]) == [1: [b, c]])
        c.removeFromSuperview()
        #expect(root.groupDescendants(by: [1]) == [1: [b]])
        #expect(!root.isRelativeAncestor(of: c))
        b.addSubview(c)
        #expect(root.groupDescendants(by: [1]) == [1: [b, c]])
        #expect(c.isRelativeDescendant(of: root))
    }

    @Test(arguments: [UInt64(1), 2, 3, 0xC0FFEE])
    func randomMutationsMatchAReferenceModel(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let n = 40
        let views: [View] = (0 ..< n).map { i in
            let v: View = i % 3 == 0 ? Button() : i % 3 == 1 ? Label() : View()
            v.tag = i % 6
            return v
        }
        var model = Model(count: n)
        for i in 0 ..< n { model.tags[i] = i % 6 }
        func pick() -> Int { Int(rng.next() % UInt64(n)) }

        for step in 0 ..< 1500 {
            let ctx = "seed \(seed) step \(step)"
            let x = pick(), y = pick()
            switch rng.next() % 10 {
            case 0, 1, 2:  // addSubview where legal
                if !model.isAncestorOrSelf(y, of: x) {
                    views[x].addSubview(views[y])
                    model.insert(y, under: x, at: nil)
                }
            case 3:  // insertSubview(_:at:)
                if !model.isAncestorOrSelf(y, of: x) {
                    let count = model.children[x].filter { $0 != y }.count
                    let at = Int(rng.next() % UInt64(count + 1))
                    views[x].insertSubview(views[y], at: at)
                    model.insert(y, under: x, at: at)
                }
            case 4:  // above / below an existing subview of x
                if let sibling = model.children[x].randomElement(using: &rng), !model.isAncestorOrSelf(y, of: x), y != sibling {
                    if rng.next() % 2 == 0 {
                        views[x].insertSubview(views[y], aboveSubview: views[sibling])
                        model.insert(y, next: sibling, above: true)
                    } else {
                        views[x].insertSubview(views[y], belowSubview: views[sibling])
                        model.insert(y, next: sibling, above: false)
                    }
                }
            case 5:
                views[x].removeFromSuperview()
                model.remove(x)
            case 6:
                if let p = model.parent[x] {
                    if rng.next() % 2 == 0 {
                        views[p].bringSubviewToFront(views[x])
                        model.children[p].removeAll { $0 == x }
                        model.children[p].append(x)
                    } else {
                        views[p].sendSubviewToBack(views[x])
                        model.children[p].removeAll { $0 == x }
                        model.children[p].insert(x, at: 0)
                    }
                }
            case 7:
                let count = model.children[x].count
                if count > 0 {
                    let i = Int(rng.next() % UInt64(count)), j = Int(rng.next() % UInt64(count))
                    views[x].exchangeSubview(at: i, withSubviewAt: j)
                    model.children[x].swapAt(i, j)
                }
            default:
                let tag = Int(rng.next() % 6)
                views[x].tag = tag
                model.tags[x] = tag
            }
            // Query after every step (a stale index) and sometimes repeatedly (a rebuilt one).
            let repeats = step % 50 == 0 ? 3 : 1
            for _ in 0 ..< repeats {
                let q = pick(), r = pick()
                let idx: (View) -> Int = { v in views.firstIndex { $0 === v }! }
                #expect(views[q].superview.map(idx) == model.parent[q], "\(ctx)")
                #expect(views[q].subviews.map(idx) == model.children[q], "\(ctx)")
                #expect(views[q].isRelativeAncestor(of: views[r]) == model.isProperAncestor(q, of: r), "\(ctx) \(q) anc \(r)")
                #expect(views[q].isRelativeDescendant(of: views[r]) == model.isProperAncestor(r, of: q), "\(ctx)")
                #expect(views[q].isRelativeSibling(of: views[r]) == (q != r && model.parent[q] != nil && model.parent[q] == model.parent[r]), "\(ctx)")
                let tags = [Int(rng.next() % 6), Int(rng.next() % 6)]
                #expect(views[q].groupDescendants(by: tags).mapValues { $0.map(idx) } == model.group(model.preorder(q), tags), "\(ctx)")
                #expect(views[q].groupAncestors(by: tags).mapValues { $0.map(idx) } == model.group(model.ancestors(q), tags), "\(ctx)")
                #expect(views[q].groupSiblings(by: tags).mapValues { $0.map(idx) } == model.group(model.siblings(q), tags), "\(ctx)")
                #expect(views[q].groupDescendants(by: [Button.self])["Button"]?.map(idx) ?? [] == model.preorder(q).filter { $0 % 3 == 0 }, "\(ctx)")
                #expect(views[q].findFirstAncestor(by: tags).map(idx) == model.ancestors(q).first { tags.contains(model.tags[$0]) }, "\(ctx)")
                #expect(views[q].recursiveSubviews.map(idx) == model.recursiveSubviews(q), "\(ctx)")
                #expect(views[q].viewWithTag(tags[0]).map(idx) == ([q] + model.preorder(q)).first { model.tags[$0] == tags[0] }, "\(ctx)")
                #expect(views[q].tag == model.tags[q], "\(ctx)")
                let root = model.root(q)
                #expect(views[q]._store?.tree.count ?? 1 == 1 + model.preorder(root).count, "\(ctx)")
                // One store per connected tree.
                if q != r {
                    let connected = root == model.root(r)
                    #expect(connected == (views[q]._store != nil && views[q]._store === views[r]._store), "\(ctx) stores of \(q) \(r)")
                }
                views[q]._store?.tree._checkInvariants()
            }
        }
    }
}

// MARK: Helpers

/// A plain reference forest over view indices: parent, ordered children and tags.
struct Model {
    var parent: [Int?]
    var children: [[Int]]
    var tags: [Int]

    init(count: Int) {
        parent = Array(repeating: nil, count: count)
        children = Array(repeating: [], count: count)
        tags = Array(repeating: 0, count: count)
    }

    func isProperAncestor(_ a: Int, of b: Int) -> Bool { ancestors(b).contains(a) }
    func isAncestorOrSelf(_ a: Int, of b: Int) -> Bool { a == b || isProperAncestor(a, of: b) }

    func ancestors(_ x: Int) -> [Int] {
        var result: [Int] = []
        var p = parent[x]
        while let q = p { result.append(q); p = parent[q] }
        return result
    }

    func root(_ x: Int) -> Int { ancestors(x).last ?? x }

    func preorder(_ x: Int) -> [Int] { children[x].flatMap { [$0] + preorder($0) } }

    func recursiveSubviews(_ x: Int) -> [Int] { children[x] + children[x].flatMap { recursiveSubviews($0) } }

    func siblings(_ x: Int) -> [Int] {
        guard let p = parent[x] else { return [] }
        return children[p].filter { $0 != x }
    }

    func group(_ nodes: [Int], _ keys: [Int]) -> [Int: [Int]] {
        var result: [Int: [Int]] = [:]
        for n in nodes where keys.contains(tags[n]) { result[tags[n], default: []].append(n) }
        return result
    }

    mutating func remove(_ x: Int) {
        guard let p = parent[x] else { return }
        children[p].removeAll { $0 == x }
        parent[x] = nil
    }

    /// Moves `x` under `p` at `index` among the other children (nil: last).
    mutating func insert(_ x: Int, under p: Int, at index: Int?) {
        remove(x)
        children[p].insert(x, at: index ?? children[p].count)
        parent[x] = p
    }

    /// Moves `x` next to `sibling`, above (after) or below (before) it.
    mutating func insert(_ x: Int, next sibling: Int, above: Bool) {
        let p = parent[sibling]!
        remove(x)
        let i = children[p].firstIndex(of: sibling)!
        children[p].insert(x, at: above ? i + 1 : i)
        parent[x] = p
    }
}
