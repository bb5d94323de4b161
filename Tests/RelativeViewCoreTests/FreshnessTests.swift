import Testing
@testable import RelativeViewCore

/// The index's life cycle: built fresh, dropped by mutations, rebuilt by `prepareIndex()`
/// or by the ski-rental rule once stale queries have walked as many nodes as the tree holds.
@Suite struct FreshnessTests {
    /// A built (fresh) tree: a root with `fan` leaves and a chain of `chain` nodes under it.
    static func built(fan: Int, chain: Int) -> (ViewTree, root: NodeID, bottom: NodeID, leaves: [NodeID]) {
        var b = ViewTreeBuilder()
        let root = b.open(tag: 0, type: Ty.a)
        var leaves: [NodeID] = []
        for i in 0 ..< fan {
            leaves.append(b.open(tag: i % 5, type: Ty.b))
            b.close()
        }
        var bottom = root
        for i in 0 ..< chain { bottom = b.open(tag: i % 5, type: Ty.c) }
        for _ in 0 ..< chain { b.close() }
        b.close()
        return (b.finish(), root, bottom, leaves)
    }

    @Test func theBuilderGivesAFreshIndex() {
        let (tree, root, bottom, _) = Self.built(fan: 10, chain: 10)
        #expect(tree.isIndexFresh)
        #expect(tree._storage.freshIndex != nil)
        tree._checkInvariants() // the published index equals a rebuilt one
        #expect(tree.isAncestor(root, of: bottom))
        #expect(tree.isIndexFresh)
        #expect(ViewTreeBuilder().finish().isIndexFresh)
    }

    /// Every kind of mutation drops the index; `prepareIndex()` makes it fresh again.
    @Test(arguments: 0 ..< 14)
    func everyMutationMakesTheIndexStale(kind: Int) throws {
        var (tree, root, bottom, leaves) = Self.built(fan: 4, chain: 3)
        #expect(tree.isIndexFresh)
        let chainTop = tree.child(of: root, at: 4)
        switch kind {
        case 0: tree.makeNode(type: Ty.a)
        case 1: tree.appendChild(type: Ty.a, to: bottom)
        case 2: tree.append(leaves[0], to: bottom)
        case 3: tree.insert(leaves[3], into: root, at: 0)
        case 4: tree.insert(leaves[0], before: leaves[2])
        case 5: tree.insert(leaves[0], after: leaves[2])
        case 6: tree.detach(chainTop)
        case 7: tree.removeSubtree(leaves[1])
        case 8: tree.moveToFront(chainTop)
        case 9: tree.moveToBack(leaves[0])
        case 10: tree.exchangeChildren(of: root, at: 0, 4)
        case 11: tree.setTag(99, of: leaves[0])
        case 12: tree.setType(Ty.d, of: leaves[0])
        default:
            let source = tree
            tree.graft(chainTop, of: source, under: leaves[0])
        }
        #expect(!tree.isIndexFresh, "mutation \(kind)")
        tree._checkInvariants()
        tree.prepareIndex()
        #expect(tree.isIndexFresh, "mutation \(kind)")
        tree._checkInvariants() // the rebuilt index matches the links
        #expect(tree.subtreeSize(of: root) == (0 ..< tree.slotCount).compactMap { tree.node(atSlot: $0) }.filter { tree.root(of: $0) == root }.count)
    }

    @Test func prepareIndexOnAFreshTreeKeepsTheIndex() {
        let (tree, _, _, _) = Self.built(fan: 3, chain: 3)
        let before = tree._storage.freshIndex?.toOpaque()
        tree.prepareIndex()
        #expect(before != nil)
        #expect(tree._storage.freshIndex?.toOpaque() == before)
    }

    @Test func prepareIndexOnAnEmptyTree() {
        let tree = ViewTree()
        tree.prepareIndex()
        #expect(tree.isIndexFresh)
        tree._checkInvariants()
    }

    // MARK: The ski-rental rule

    @Test func staleAncestorQueriesRebuildOnceTheirWorkReachesTheNodeCount() {
        // n = 1 + 900 + 99 = 1000 nodes; the bottom of the chain is 99 deep.
        var (tree, root, bottom, leaves) = Self.built(fan: 900, chain: 99)
        let n = tree.count
        #expect(n == 1000)
        tree.setTag(1, of: leaves[0])
        #expect(!tree.isIndexFresh)
        let depth = tree.depth(of: bottom)
        #expect(depth == 99)
        var queries = 0
        var work = 0
        // A little work: well below n. Each query walks about `depth` parent links.
        while work + depth <= n / 2 {
            #expect(tree.isAncestor(root, of: bottom))
            #expect(!tree.isAncestor(bottom, of: root))
            queries += 1
            work += depth
        }
        #expect(queries >= 5)
        #expect(!tree.isIndexFresh, "rebuilt after only \(work) of \(n) nodes walked")
        // Enough work: at least n.
        while work < n + depth {
            #expect(tree.isAncestor(root, of: bottom))
            queries += 1
            work += depth
        }
        #expect(tree.isIndexFresh, "not rebuilt after \(work) of \(n) nodes walked")
        tree._checkInvariants()
        // The answers are the same on the rebuilt index.
        #expect(tree.isAncestor(root, of: bottom))
        #expect(!tree.isAncestor(bottom, of: root))
        #expect(tree.isIndexFresh)

        // The debt was paid by the rebuild: after a new mutation, a little work does not rebuild.
        tree.setTag(2, of: leaves[0])
        #expect(!tree.isIndexFresh)
        for _ in 0 ..< 3 { #expect(tree.isAncestor(root, of: bottom)) }
        #expect(!tree.isIndexFresh, "the debt of the previous stale phase was not reset by the rebuild")
    }

    @Test func staleGroupingQueriesRebuildOnceTheirWorkReachesTheNodeCount() {
        // A root with 10 chains of 99 nodes: 991 nodes; each chain's top has 98 descendants.
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        var tops: [NodeID] = []
        for _ in 0 ..< 10 {
            var x = tree.appendChild(tag: 1, type: Ty.b, to: root)
            tops.append(x)
            for i in 0 ..< 98 { x = tree.appendChild(tag: i % 3, type: Ty.c, to: x) }
        }
        let n = tree.count
        #expect(n == 991)
        tree._checkInvariants()
        #expect(!tree.isIndexFresh) // built with appendChild: never indexed
        tree.prepareIndex()
        tree.setTag(5, of: root) // stale, and no debt
        #expect(!tree.isIndexFresh)
        let expected = tree.groupDescendants(of: tops[3], byTags: [0, 1, 2])
        #expect(expected[0]?.count == 33 && expected[1]?.count == 33 && expected[2]?.count == 32)
        var work = 98
        while work + 98 <= n / 2 {
            #expect(tree.groupDescendants(of: tops[3], byTags: [0, 1, 2]) == expected)
            work += 98
        }
        #expect(!tree.isIndexFresh, "rebuilt after only \(work) of \(n) nodes walked")
        while work < n + 98 {
            #expect(tree.groupDescendants(of: tops[3], byTags: [0, 1, 2]) == expected)
            work += 98
        }
        #expect(tree.isIndexFresh, "not rebuilt after \(work) of \(n) nodes walked")
        #expect(tree.groupDescendants(of: tops[3], byTags: [0, 1, 2]) == expected)
        tree._checkInvariants()
    }

    @Test func staleWholeTreeGroupingRebuildsOnTheSecondQuery() {
        var (tree, root, _, leaves) = Self.built(fan: 50, chain: 49) // 100 nodes
        tree.setTag(7, of: leaves[0])
        let expected = freshCopy(tree).groupDescendants(of: root, byTags: [0, 7])
        #expect(!tree.isIndexFresh)
        #expect(tree.groupDescendants(of: root, byTags: [0, 7]) == expected) // walks 99 < 100
        #expect(!tree.isIndexFresh)
        #expect(tree.groupDescendants(of: root, byTags: [0, 7]) == expected) // 198 >= 100
        #expect(tree.isIndexFresh)
    }

    @Test func otherStaleQueriesAlsoPay() {
        // subtreeSize, the closure grouping, and lowestCommonAncestor all walk and pay.
        for kind in 0 ..< 3 {
            var (tree, root, bottom, leaves) = Self.built(fan: 0, chain: 99) // 100 nodes
            tree.setTag(42, of: bottom) // the only node tagged 42
            #expect(!tree.isIndexFresh)
            var rounds = 0
            while !tree.isIndexFresh && rounds < 1000 {
                switch kind {
                case 0: #expect(tree.subtreeSize(of: root) == 100)
                case 1: #expect(tree.groupDescendants(of: root) { tree.tag(of: $0) == 42 ? 42 : nil } == [42: [bottom]])
                default: #expect(tree.lowestCommonAncestor(bottom, root) == root)
                }
                rounds += 1
            }
            _ = leaves
            #expect(tree.isIndexFresh, "query kind \(kind) never rebuilt the index")
            #expect(rounds >= 1 && rounds <= 3, "query kind \(kind) took \(rounds) rounds")
        }
    }

    // MARK: Value semantics

    @Test func copiesAreIndependent() {
        let (original, root, bottom, leaves) = Self.built(fan: 5, chain: 5)
        #expect(original.isIndexFresh)
        let descendantsBefore = Array(original.descendants(of: root))
        let groupsBefore = original.groupDescendants(of: root, byTags: [0, 1, 2, 3, 4])

        var copy = original
        copy.append(leaves[0], to: bottom)
        copy.setTag(42, of: leaves[1])
        copy.removeSubtree(leaves[2])
        copy._checkInvariants()
        #expect(!copy.isIndexFresh)
        // The original is untouched, still fresh, same answers.
        #expect(original.isIndexFresh)
        original._checkInvariants()
        #expect(original.count == 11)
        #expect(original.contains(leaves[2]))
        #expect(original.tag(of: leaves[1]) == 1)
        #expect(original.parent(of: leaves[0]) == root)
        #expect(Array(original.descendants(of: root)) == descendantsBefore)
        #expect(original.groupDescendants(of: root, byTags: [0, 1, 2, 3, 4]) == groupsBefore)
        #expect(!original.isAncestor(bottom, of: leaves[0]))
        // The copy has its own answers.
        #expect(copy.count == 10)
        #expect(!copy.contains(leaves[2]))
        #expect(copy.isAncestor(bottom, of: leaves[0]))
        #expect(copy.tag(of: leaves[1]) == 42)

        // The other way round: mutate the original, a copy taken before keeps its answers.
        var second = original
        let snapshot = second
        second.detach(bottom)
        #expect(snapshot.isIndexFresh)
        #expect(snapshot.isAncestor(root, of: bottom))
        #expect(!second.isAncestor(root, of: bottom))
        snapshot._checkInvariants()
        second._checkInvariants()
    }

    @Test func aStaleCopyRebuildingDoesNotAffectAMutatedSibling() {
        var (tree, root, bottom, leaves) = Self.built(fan: 20, chain: 10)
        tree.setTag(1, of: root) // stale
        var other = tree
        other.removeSubtree(leaves[0]) // other gets its own storage
        tree.prepareIndex()
        #expect(tree.isIndexFresh)
        #expect(!other.isIndexFresh)
        #expect(other.subtreeSize(of: root) == tree.subtreeSize(of: root) - 1)
        other.prepareIndex()
        other._checkInvariants()
        tree._checkInvariants()
        #expect(tree.isAncestor(root, of: bottom) && other.isAncestor(root, of: bottom))
    }
}
