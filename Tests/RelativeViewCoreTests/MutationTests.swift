import RelativeViewEngine
import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// Structural mutations: every one is followed by the invariant check and a check of the links.
@Suite struct MutationTests {
    static let sizes = [0, 1, 2, 10, 100]

    /// A root with `n` leaf children tagged 0 ..< n.
    static func fan(_ n: Int) -> (ViewTree, NodeID, [NodeID]) {
        var tree = ViewTree()
        let root = tree.makeNode(tag: -1, type: Ty.a)
        var kids: [NodeID] = []
        for i in 0 ..< n { kids.append(tree.appendChild(tag: i, type: Ty.b, to: root)) }
        return (tree, root, kids)
    }

    // MARK: makeNode / appendChild

    @Test(arguments: sizes)
    func makeNodeMakesRoots(n: Int) {
        var tree = ViewTree()
        #expect(tree.isEmpty)
        var made: [NodeID] = []
        for i in 0 ..< n {
            let node = tree.makeNode(tag: i * 7, type: Ty.all[i % 4])
            tree._checkInvariants()
            made.append(node)
            #expect(tree.count == i + 1)
            #expect(tree.contains(node))
            #expect(tree.tag(of: node) == i * 7)
            #expect(tree.typeID(of: node) == Ty.all[i % 4])
            expectRoot(tree, node)
            expectChildren(tree, node, [])
        }
        #expect(tree.count == n)
        #expect(tree.slotCount == n)
        #expect(tree.isEmpty == (n == 0))
        #expect(tree.roots == made)
        #expect(Set(made).count == n)
    }

    @Test(arguments: sizes)
    func appendChildAppendsInOrder(n: Int) {
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        var kids: [NodeID] = []
        for i in 0 ..< n {
            kids.append(tree.appendChild(tag: i, type: Ty.b, to: root))
            expectChildren(tree, root, kids)
        }
        expectRoot(tree, root)
        #expect(tree.count == n + 1)
        #expect(tree.roots == [root])
        #expect(kids.map { tree.tag(of: $0) } == Array(0 ..< n))
        // Grandchildren go under the right child.
        if let first = kids.first, let last = kids.last {
            let g1 = tree.appendChild(type: Ty.c, to: first)
            let g2 = tree.appendChild(type: Ty.c, to: last)
            expectChildren(tree, root, kids)
            if first == last {
                expectChildren(tree, first, [g1, g2])
            } else {
                expectChildren(tree, first, [g1])
                expectChildren(tree, last, [g2])
            }
        }
    }

    // MARK: append(_:to:)

    /// The root goes; its children become roots with their subtrees, whose index runs stay
    /// where they were (checked against the links by the invariant check).
    @Test(arguments: sizes)
    func removingARootKeepsItsChildrenAsRoots(n: Int) {
        var (tree, root, leaves) = Self.fan(n)
        let grandchildren = leaves.prefix(3).map { tree.appendChild(tag: 99, type: Ty.b, to: $0) }
        tree.removeRootKeepingChildren(root)
        tree._checkInvariants()
        #expect(!tree.contains(root))
        #expect(tree.count == n + grandchildren.count)
        #expect(tree.rootCount == n)
        for (leaf, grandchild) in zip(leaves, grandchildren) {
            #expect(tree.parent(of: leaf) == nil)
            #expect(tree.isAncestor(leaf, of: grandchild))
            #expect(tree.group(.descendants, of: leaf, byTags: [99]) == [99: [grandchild]])
        }
        for (x, y) in zip(leaves, leaves.dropFirst()) {
            #expect(!tree.isAncestor(x, of: y) && !tree.isAncestor(y, of: x))
        }
    }

    @Test func appendMovesANodeWithItsSubtreeBetweenParents() {
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        let p1 = tree.appendChild(type: Ty.a, to: root)
        let p2 = tree.appendChild(type: Ty.a, to: root)
        let w = tree.appendChild(tag: 1, type: Ty.b, to: p1)
        let x = tree.appendChild(tag: 2, type: Ty.b, to: p1)
        let y = tree.appendChild(tag: 3, type: Ty.b, to: p1)
        let x1 = tree.appendChild(tag: 4, type: Ty.c, to: x)
        let x2 = tree.appendChild(tag: 5, type: Ty.c, to: x)
        let x11 = tree.appendChild(tag: 6, type: Ty.d, to: x1)
        let z = tree.appendChild(tag: 7, type: Ty.b, to: p2)

        tree.append(x, to: p2)
        expectChildren(tree, p1, [w, y])
        expectChildren(tree, p2, [z, x])
        expectChildren(tree, x, [x1, x2])
        expectChildren(tree, x1, [x11])
        #expect(tree.parent(of: x) == p2)
        #expect(tree.count == 10)
        #expect(tree.tag(of: x) == 2 && tree.tag(of: x11) == 6)
        #expect(tree.isAncestor(p2, of: x11))
        #expect(!tree.isAncestor(p1, of: x11))

        // Back to the first parent, as its last child.
        tree.append(x, to: p1)
        expectChildren(tree, p1, [w, y, x])
        expectChildren(tree, p2, [z])
        expectChildren(tree, x, [x1, x2])

        // Under a node of a different branch, deeper.
        tree.append(x, to: z)
        expectChildren(tree, p1, [w, y])
        expectChildren(tree, z, [x])
        #expect(tree.depth(of: x11) == 5)

        // The only child moves away: its old parent becomes a leaf.
        tree.append(x, to: w)
        expectChildren(tree, z, [])
        expectChildren(tree, w, [x])
    }

    @Test func appendToTheSameParentMovesToTheEnd() {
        var (tree, root, k) = Self.fan(4)
        tree.append(k[0], to: root)
        expectChildren(tree, root, [k[1], k[2], k[3], k[0]])
        tree.append(k[2], to: root)
        expectChildren(tree, root, [k[1], k[3], k[0], k[2]])
        tree.append(k[2], to: root) // already last: no change
        expectChildren(tree, root, [k[1], k[3], k[0], k[2]])
    }

    @Test(arguments: sizes)
    func appendMovesARootUnderAParent(n: Int) {
        var (tree, root, kids) = Self.fan(n)
        let other = tree.makeNode(tag: 99, type: Ty.c)
        let o1 = tree.appendChild(type: Ty.d, to: other)
        let o2 = tree.appendChild(type: Ty.d, to: other)
        #expect(tree.roots == [root, other])
        tree.append(other, to: root)
        expectChildren(tree, root, kids + [other])
        expectChildren(tree, other, [o1, o2])
        #expect(tree.roots == [root])
        #expect(tree.count == n + 4)
        // And a leaf root before it.
        let leaf = tree.makeNode(type: Ty.a)
        tree.append(leaf, to: root)
        expectChildren(tree, root, kids + [other, leaf])
    }

    // MARK: insert(_:into:at:)

    @Test(arguments: sizes)
    func insertANewNodeAtFrontMiddleAndEnd(n: Int) {
        for position in Set([0, n / 2, n]) {
            var (tree, root, kids) = Self.fan(n)
            let node = tree.makeNode(tag: 1000, type: Ty.c)
            tree.insert(node, into: root, at: position)
            var expected = kids
            expected.insert(node, at: position)
            expectChildren(tree, root, expected, "n \(n) at \(position)")
            #expect(tree.roots == [root])
        }
    }

    @Test(arguments: sizes.filter { $0 > 0 })
    func insertAnExistingChildCountsTheIndexAfterDetaching(n: Int) {
        // Move every child to every position.
        let positions = n <= 10 ? Array(0 ..< n) : [0, 1, n / 2, n - 2, n - 1]
        for from in positions {
            for to in positions {
                var (tree, root, kids) = Self.fan(n)
                tree.insert(kids[from], into: root, at: to)
                var expected = kids
                let moved = expected.remove(at: from)
                expected.insert(moved, at: to)
                expectChildren(tree, root, expected, "n \(n) from \(from) to \(to)")
            }
        }
    }

    @Test func insertIntoAnotherParentWithItsSubtree() {
        var (tree, root, kids) = Self.fan(3)
        let other = tree.makeNode(type: Ty.a)
        let moving = tree.appendChild(type: Ty.b, to: other)
        let grandchild = tree.appendChild(type: Ty.c, to: moving)
        tree.insert(moving, into: root, at: 1)
        expectChildren(tree, root, [kids[0], moving, kids[1], kids[2]])
        expectChildren(tree, other, [])
        expectChildren(tree, moving, [grandchild])
        // A root with a subtree, at the front.
        tree.insert(other, into: grandchild, at: 0)
        expectChildren(tree, grandchild, [other])
        #expect(tree.roots == [root])
        #expect(tree.depth(of: other) == 3)
    }

    // MARK: insert(_:before:) / insert(_:after:)

    @Test(arguments: sizes.filter { $0 > 0 })
    func insertANewNodeBeforeAndAfterEachChild(n: Int) {
        let positions = n <= 10 ? Array(0 ..< n) : [0, 1, n / 2, n - 1]
        for k in positions {
            do {
                var (tree, root, kids) = Self.fan(n)
                let node = tree.makeNode(type: Ty.c)
                tree.insert(node, before: kids[k])
                var expected = kids
                expected.insert(node, at: k)
                expectChildren(tree, root, expected, "before \(k) of \(n)")
            }
            do {
                var (tree, root, kids) = Self.fan(n)
                let node = tree.makeNode(type: Ty.c)
                tree.insert(node, after: kids[k])
                var expected = kids
                expected.insert(node, at: k + 1)
                expectChildren(tree, root, expected, "after \(k) of \(n)")
            }
        }
    }

    @Test(arguments: [2, 3, 10])
    func insertBeforeAndAfterAnExistingSibling(n: Int) {
        // Every (moving, anchor) pair of distinct siblings, both directions.
        for m in 0 ..< n {
            for a in 0 ..< n where a != m {
                do {
                    var (tree, root, kids) = Self.fan(n)
                    tree.insert(kids[m], before: kids[a])
                    var expected = kids
                    expected.removeAll { $0 == kids[m] }
                    expected.insert(kids[m], at: expected.firstIndex(of: kids[a])!)
                    expectChildren(tree, root, expected, "move \(m) before \(a) of \(n)")
                }
                do {
                    var (tree, root, kids) = Self.fan(n)
                    tree.insert(kids[m], after: kids[a])
                    var expected = kids
                    expected.removeAll { $0 == kids[m] }
                    expected.insert(kids[m], at: expected.firstIndex(of: kids[a])! + 1)
                    expectChildren(tree, root, expected, "move \(m) after \(a) of \(n)")
                }
            }
        }
    }

    @Test func insertBeforeAndAfterFromAnotherParent() {
        var (tree, root, kids) = Self.fan(3)
        let p = tree.appendChild(type: Ty.a, to: kids[0])
        let q = tree.appendChild(type: Ty.a, to: p)
        let q1 = tree.appendChild(type: Ty.a, to: q)
        tree.insert(q, before: kids[0])
        expectChildren(tree, root, [q, kids[0], kids[1], kids[2]])
        expectChildren(tree, p, [])
        expectChildren(tree, q, [q1])
        tree.insert(q, after: kids[2])
        expectChildren(tree, root, [kids[0], kids[1], kids[2], q])
        tree.insert(q, after: p) // p is the only child of kids[0]
        expectChildren(tree, root, kids)
        expectChildren(tree, kids[0], [p, q])
    }

    // MARK: detach

    @Test(arguments: sizes.filter { $0 > 0 })
    func detachEachPosition(n: Int) {
        let positions = n <= 10 ? Array(0 ..< n) : [0, 1, n / 2, n - 1]
        for k in positions {
            var (tree, root, kids) = Self.fan(n)
            let g = tree.appendChild(type: Ty.c, to: kids[k])
            let gg = tree.appendChild(type: Ty.d, to: g)
            tree.detach(kids[k])
            var expected = kids
            expected.remove(at: k)
            expectChildren(tree, root, expected, "detach \(k) of \(n)")
            expectRoot(tree, kids[k])
            expectChildren(tree, kids[k], [g])
            expectChildren(tree, g, [gg])
            #expect(tree.count == n + 3)
            #expect(tree.roots == [root, kids[k]])
            #expect(!tree.isAncestor(root, of: gg))
            #expect(tree.isAncestor(kids[k], of: gg))
            #expect(tree.root(of: gg) == kids[k])
            // Detaching a root changes nothing.
            tree.detach(kids[k])
            tree._checkInvariants()
            expectRoot(tree, kids[k])
            expectChildren(tree, root, expected)
            tree.detach(root)
            expectChildren(tree, root, expected)
            expectRoot(tree, root)
        }
    }

    // MARK: removeSubtree

    @Test(arguments: sizes)
    func removeSubtreeFreesItsSlotsForReuse(n: Int) {
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        let keep = tree.appendChild(tag: 1, type: Ty.a, to: root)
        let doomed = tree.appendChild(tag: 2, type: Ty.b, to: root)
        let after = tree.appendChild(tag: 3, type: Ty.a, to: root)
        // A subtree of n more nodes under `doomed`: a chain and a fan mixed.
        var removed = [doomed]
        var last = doomed
        for i in 0 ..< n {
            let parent = i % 3 == 0 ? last : doomed
            last = tree.appendChild(tag: 10 + i, type: Ty.c, to: parent)
            removed.append(last)
        }
        let slotsBefore = tree.slotCount
        #expect(tree.count == n + 4)
        tree.removeSubtree(doomed)
        expectChildren(tree, root, [keep, after])
        #expect(tree.count == 3)
        #expect(tree.slotCount == slotsBefore)
        for id in removed { #expect(!tree.contains(id)) }
        for id in [root, keep, after] { #expect(tree.contains(id)) }
        for i in 0 ..< tree.slotCount {
            #expect((tree.node(atSlot: i) != nil) == [root, keep, after].contains { Int($0.index) == i })
        }
        // New nodes reuse the freed slots (no growth), with new generations.
        var fresh: [NodeID] = []
        for i in 0 ..< removed.count {
            fresh.append(tree.appendChild(tag: 100 + i, type: Ty.d, to: keep))
            tree._checkInvariants()
        }
        #expect(tree.slotCount == slotsBefore)
        #expect(Set(fresh.map(\.index)) == Set(removed.map(\.index)))
        for id in fresh { #expect(tree.contains(id)) }
        for id in removed { #expect(!tree.contains(id)) }
        expectChildren(tree, keep, fresh)
        #expect(fresh.map { tree.tag(of: $0) } == (0 ..< removed.count).map { 100 + $0 })
        #expect(fresh.allSatisfy { tree.typeID(of: $0) == Ty.d })
        // One more grows the arena.
        _ = tree.makeNode(type: Ty.a)
        tree._checkInvariants()
        #expect(tree.slotCount == slotsBefore + 1)
    }

    @Test func removeSubtreeOfARootAndOfALeaf() {
        var (tree, root, kids) = Self.fan(3)
        tree.removeSubtree(kids[2])
        expectChildren(tree, root, [kids[0], kids[1]])
        tree.removeSubtree(kids[0])
        expectChildren(tree, root, [kids[1]])
        let other = tree.makeNode(type: Ty.b)
        #expect(other.index == kids[0].index) // last freed, first reused
        #expect(other != kids[0])
        tree.removeSubtree(root)
        tree._checkInvariants()
        #expect(tree.count == 1)
        #expect(!tree.contains(root) && !tree.contains(kids[1]))
        #expect(tree.roots == [other])
        tree.removeSubtree(other)
        tree._checkInvariants()
        #expect(tree.isEmpty)
        #expect(tree.roots.isEmpty)
    }

    // MARK: makeFirstChild / makeLastChild

    @Test(arguments: sizes.filter { $0 > 0 })
    func makeFirstChildAndBack(n: Int) {
        let positions = n <= 10 ? Array(0 ..< n) : [0, 1, n / 2, n - 1]
        for k in positions {
            do {
                var (tree, root, kids) = Self.fan(n)
                tree.makeFirstChild(kids[k])
                var expected = kids
                expected.insert(expected.remove(at: k), at: 0)
                expectChildren(tree, root, expected, "front \(k) of \(n)")
                tree.makeFirstChild(kids[k]) // already first
                expectChildren(tree, root, expected)
            }
            do {
                var (tree, root, kids) = Self.fan(n)
                tree.makeLastChild(kids[k])
                var expected = kids
                expected.append(expected.remove(at: k))
                expectChildren(tree, root, expected, "back \(k) of \(n)")
                tree.makeLastChild(kids[k]) // already last
                expectChildren(tree, root, expected)
            }
        }
    }

    @Test func makeFirstChildAndBackOfARootDoNothing() {
        var (tree, root, kids) = Self.fan(3)
        tree.makeFirstChild(root)
        expectRoot(tree, root)
        expectChildren(tree, root, kids)
        tree.makeLastChild(root)
        expectRoot(tree, root)
        expectChildren(tree, root, kids)
    }

    @Test func moveKeepsTheSubtree() {
        var (tree, root, kids) = Self.fan(3)
        let g = tree.appendChild(type: Ty.c, to: kids[2])
        tree.makeFirstChild(kids[2])
        expectChildren(tree, root, [kids[2], kids[0], kids[1]])
        expectChildren(tree, kids[2], [g])
        tree.makeLastChild(kids[0])
        expectChildren(tree, root, [kids[2], kids[1], kids[0]])
        expectChildren(tree, kids[2], [g])
    }

    // MARK: exchangeChildren

    @Test(arguments: sizes.filter { $0 > 0 })
    func exchangeEveryPair(n: Int) {
        let positions = n <= 10 ? Array(0 ..< n) : [0, 1, 2, n / 2, n - 2, n - 1]
        for i in positions {
            for j in positions {
                var (tree, root, kids) = Self.fan(n)
                let g = tree.appendChild(type: Ty.c, to: kids[i])
                tree.exchangeChildren(of: root, at: i, j)
                var expected = kids
                expected.swapAt(i, j)
                expectChildren(tree, root, expected, "exchange \(i) \(j) of \(n)")
                expectChildren(tree, kids[i], [g])
                // Exchanging again restores the order.
                tree.exchangeChildren(of: root, at: j, i)
                expectChildren(tree, root, kids, "exchange back \(j) \(i) of \(n)")
            }
        }
    }

    @Test func exchangeRepeatedlyMatchesAnArrayModel() {
        var (tree, root, kids) = Self.fan(7)
        var model = kids
        var rng = SplitMix64(seed: 42)
        for step in 0 ..< 200 {
            let i = Int.random(in: 0 ..< 7, using: &rng)
            let j = Int.random(in: 0 ..< 7, using: &rng)
            tree.exchangeChildren(of: root, at: i, j)
            model.swapAt(i, j)
            expectChildren(tree, root, model, "step \(step): exchange \(i) \(j)")
        }
    }

    /// A tree whose columns and index are borrowed (read in place from memory another
    /// object owns, as a mapped snapshot's will be) answers as its lender does; its first
    /// change of any kind copies them into memory of its own, and the lender is left as it
    /// was; the borrowed memory lives as long as the borrower does.
    @Test func aTreeWithBorrowedColumnsReadsInPlaceAndCopiesBeforeItsFirstChange() {
        var rng = SplitMix64(seed: 11)
        var borrower: ViewTree
        var ids: [NodeID] = []
        var lenderTokens: [Int32] = []
        do {
            var lender = ViewTree()
            ids = [lender.makeNode(tag: 0, type: Ty.a)]
            for _ in 1 ..< 3_000 {
                let p = ids[Int.random(in: 0 ..< ids.count, using: &rng)]
                ids.append(lender.appendChild(tag: Int.random(in: 0 ..< 8, using: &rng), type: Ty.all.randomElement(using: &rng)!, to: p))
            }
            lender.removeSubtree(ids[2_999])  // a free slot, and generations
            ids.removeLast()
            borrower = lender._borrowingColumns()
            #expect(borrower._storage.borrowsMemory && borrower._storage.parent.isBorrowed && borrower._storage.tour.token.isBorrowed)
            for _ in 0 ..< 2_000 {
                let (a, b) = (ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!)
                #expect(borrower.isAncestor(a, of: b) == lender.isAncestor(a, of: b))
                #expect(borrower.isSibling(a, of: b) == lender.isSibling(a, of: b))
            }
            for x in ids.prefix(20) {
                #expect(borrower.group(.descendants, of: x, byTags: [3, 5]) == lender.group(.descendants, of: x, byTags: [3, 5]))
                #expect(borrower.kids(x) == lender.kids(x))
            }
            lenderTokens = lender._storage.tour.checkedTokens()
            // A borrower no other tree shares copies before its first change all the same.
            var solo = lender._borrowingColumns()
            let soloLeaf = solo.appendChild(tag: 4, type: Ty.b, to: ids[7])
            solo.insert(ids[9], into: ids[0], at: 0)
            #expect(!solo._storage.borrowsMemory && solo.isAncestor(ids[7], of: soloLeaf))
            #expect(lender._storage.tour.checkedTokens() == lenderTokens && !lender.contains(soloLeaf))
            lender._checkInvariants()
            // A geometry write is a change too: it copies, and the lender keeps its columns.
            var moved = borrower
            moved.setFrameOrigin([1, 2], of: ids[1])
            #expect(!moved._storage.borrowsMemory && !moved._storage.parent.isBorrowed)
            #expect(lender.frameOrigin(of: ids[1]) == .zero)
            // The lender goes out of scope here; the borrower keeps its memory alive.
        }
        borrower._checkInvariants()
        #expect(borrower._storage.tour.checkedTokens() == lenderTokens)
        let before = borrower
        // The first structural change copies; the borrowed memory (now read by `before`
        // alone) is not written.
        let leaf = borrower.appendChild(tag: 9, type: Ty.c, to: ids[0])
        #expect(!borrower._storage.borrowsMemory && !borrower._storage.tour.token.isBorrowed)
        #expect(before._storage.borrowsMemory && before._storage.tour.checkedTokens() == lenderTokens)
        for _ in 0 ..< 200 {
            let (x, p) = (ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!)
            if x != p && !borrower.isAncestor(x, of: p) { borrower.insert(x, into: p, at: 0) }
        }
        borrower._checkInvariants()
        before._checkInvariants()
        #expect(borrower.isAncestor(ids[0], of: leaf) && !before.contains(leaf))
        #expect(before._storage.tour.checkedTokens() == lenderTokens)
    }

    @Test func compactIndexKeepsEveryAnswerAndLaysBlocksInOrder() {
        // A tree built by appends under random parents, then moved about: its index blocks
        // are scattered. Compacting must change nothing a query sees, and later mutations
        // must go on from the compacted index.
        var rng = SplitMix64(seed: 7)
        var tree = ViewTree()
        var ids = [tree.makeNode(tag: 0, type: Ty.a)]
        for _ in 1 ..< 20_000 {
            let p = ids[Int.random(in: 0 ..< ids.count, using: &rng)]
            ids.append(tree.appendChild(tag: Int.random(in: 0 ..< 16, using: &rng), type: Ty.all.randomElement(using: &rng)!, to: p))
        }
        for _ in 0 ..< 2_000 {
            let (x, p) = (ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!)
            if x != p && !tree.isAncestor(x, of: p) { tree.append(x, to: p) }
        }
        // Spare column capacity, whatever the allocator's rounding left.
        tree.reserveCapacity(2 * ids.count)
        var compacted = tree
        let blocksBefore = compacted._storage.tour.liveBlocks
        compacted.compactIndex()
        compacted._checkInvariants()
        let tour = compacted._storage.tour
        #expect(tour.liveBlocks == (2 * ids.count + _TourBlocks.compactFill - 1) / _TourBlocks.compactFill)
        #expect(tour.liveBlocks < blocksBefore)
        #expect(tour.checkedTokens() == tree._storage.tour.checkedTokens())
        // The copy taken before is untouched (copy on write).
        #expect(tree._storage.tour.liveBlocks == blocksBefore)
        // The node columns gave back their spare capacity, and the whole footprint shrank.
        let slots = compacted._storage.slotCount
        #expect(tree._storage.parent.capacity - slots > slots / 8)
        #expect(compacted._storage.parent.capacity - slots <= slots / 8 && compacted._storage.tour.span.capacity - slots <= slots / 8)
        #expect(compacted.memoryFootprint < tree.memoryFootprint)
        for step in 0 ..< 3 {
            for _ in 0 ..< 2_000 {
                let (a, b) = (ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!)
                #expect(compacted.isAncestor(a, of: b) == tree.isAncestor(a, of: b), "step \(step)")
                #expect(compacted.isSibling(a, of: b) == tree.isSibling(a, of: b), "step \(step)")
            }
            for x in [ids[0], ids[1], ids.randomElement(using: &rng)!] {
                #expect(compacted.group(.descendants, of: x, byTags: [3, 5]) == tree.group(.descendants, of: x, byTags: [3, 5]), "step \(step)")
                #expect(compacted.group(.descendants, of: x, byTypes: [Ty.b]) == tree.group(.descendants, of: x, byTypes: [Ty.b]), "step \(step)")
                #expect(compacted.kids(x) == tree.kids(x), "step \(step)")
            }
            // The same mutations on both: a compacted index takes inserts (its full blocks split).
            for _ in 0 ..< 500 {
                let (x, p) = (ids.randomElement(using: &rng)!, ids.randomElement(using: &rng)!)
                let t = Int.random(in: 0 ..< 16, using: &rng)
                let a = tree.appendChild(tag: t, type: Ty.c, to: p)
                #expect(compacted.appendChild(tag: t, type: Ty.c, to: p) == a)
                ids.append(a)
                if x != p && !tree.isAncestor(x, of: p) {
                    tree.insert(x, into: p, at: 0)
                    compacted.insert(x, into: p, at: 0)
                }
            }
            compacted._checkInvariants()
        }
    }
}

/// Large removals: the subtree leaves at once, its slots are freed by later mutations.
@Suite struct LargeRemovalTests {
    /// A random recursive tree of `n` nodes (node i under a random earlier node).
    static func randomTree(_ n: Int, seed: UInt64) -> (ViewTree, [NodeID]) {
        var rng = SplitMix64(seed: seed)
        var tree = ViewTree()
        var ids = [tree.makeNode(tag: 0, type: Ty.a)]
        for i in 1 ..< n { ids.append(tree.appendChild(tag: i % 7, type: Ty.all[i % Ty.all.count], to: ids[Int.random(in: 0 ..< i, using: &rng)])) }
        return (tree, ids)
    }

    @Test func aLargeSubtreeLeavesAtOnceAndItsSlotsAreFreedLater() {
        var (tree, ids) = Self.randomTree(20_000, seed: 5)
        // A subtree of a few thousand nodes: a child of the root.
        let top = try! #require(tree.children(of: ids[0]).max { tree.subtreeSize(of: $0) < tree.subtreeSize(of: $1) })
        let doomed = [top] + Array(tree.descendants(of: top))
        #expect(doomed.count > 1_000)
        let (slots, roots) = (tree.slotCount, tree.roots)
        tree.removeSubtree(top)
        #expect(tree._hasPendingRemovals, "a subtree of \(doomed.count) nodes waits to be freed")
        tree._checkInvariants()
        #expect(tree.count == 20_000 - doomed.count)
        #expect(tree.roots == roots)
        for id in doomed {
            #expect(!tree.contains(id))
            #expect(tree.node(atSlot: Int(id.index)) == nil)
        }
        #expect(!tree.children(of: ids[0]).contains(top))
        #expect(tree.subtreeSize(of: ids[0]) == tree.count)
        // Each mutation frees a few blocks' worth; new nodes take slots only once freed.
        let survivors = ids.filter { tree.contains($0) }
        var added: [NodeID] = []
        var mutations = 0
        while tree._hasPendingRemovals {
            added.append(tree.appendChild(type: Ty.b, to: survivors[mutations % survivors.count]))
            mutations += 1
            tree._checkInvariants()
        }
        #expect(mutations <= doomed.count, "about 128 nodes freed a mutation, not one")
        // Then upkeep moves the freed blocks to the end and gives their memory back.
        let footprint = tree.memoryFootprint
        for k in 0 ..< 20_000 { tree.setTag(k, of: survivors[k % survivors.count]) }
        #expect(tree.memoryFootprint < footprint, "the index gave back the removed subtree's blocks")
        tree._checkInvariants()
        #expect(mutations > 1, "the freeing is spread over mutations")
        #expect(tree.slotCount == slots, "the new nodes took freed slots")
        for id in doomed { #expect(!tree.contains(id)) }
        for id in added { #expect(tree.contains(id)) }
        #expect(tree.count == 20_000 - doomed.count + added.count)
    }

    @Test func compactingOrCopyingWithRemovalsWaitingKeepsTheTree() {
        var (tree, ids) = Self.randomTree(10_000, seed: 9)
        let top = try! #require(tree.children(of: ids[0]).max { tree.subtreeSize(of: $0) < tree.subtreeSize(of: $1) })
        tree.removeSubtree(top)
        #expect(tree._hasPendingRemovals)
        let settled = tree._settled()
        #expect(!settled._hasPendingRemovals && tree._hasPendingRemovals, "the settled copy is a copy")
        settled._checkInvariants()
        #expect(Array(settled.descendants(of: ids[0])) == Array(tree.descendants(of: ids[0])))
        var copy = tree
        copy.compactIndex()
        #expect(!copy._hasPendingRemovals)
        copy._checkInvariants()
        #expect(Array(copy.descendants(of: ids[0])) == Array(tree.descendants(of: ids[0])))
    }
}
