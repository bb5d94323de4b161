import Testing
import RelativeViewFixtures
@testable import RelativeViewCore

/// A chain a million nodes deep: every walk in the core is iterative, so nothing overflows
/// the stack. The chain is built with `appendChild`, which is O(1) (invariants are checked
/// by the tests, not by every mutation).
@Suite(.serialized, .enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) struct DeepChainLongTests {
    static let depth = 1_000_000

    /// top -> ... -> bottom, tags i % 10, types alternating A/B; plus one extra leaf under the middle node.
    static func chain() -> (tree: ViewTree, top: NodeID, middle: NodeID, bottom: NodeID, side: NodeID) {
        var tree = ViewTree(minimumCapacity: depth + 1)
        let top = tree.makeNode(tag: 0, type: Ty.a)
        var x = top
        var middle = top
        for i in 1 ..< depth {
            x = tree.appendChild(tag: i % 10, type: i % 2 == 0 ? Ty.a : Ty.b, to: x)
            if i == depth / 2 { middle = x }
        }
        let side = tree.appendChild(tag: 77, type: Ty.c, to: middle)
        return (tree, top, middle, x, side)
    }

    @Test func queriesOnAMillionDeepChain() {
        let (built, top, middle, bottom, side) = Self.chain()
        let n = Self.depth + 1
        #expect(built.count == n)
        built._checkInvariants()

        // Two passes: the index as appendChild built it, then after moves (each pass after a
        // mutation that changes nothing before every query, as a UI would between frames).
        var tree = built
        for moved in [false, true] {
            tree = moved ? movedCopy(built) : builtCopy(built)
            let label: Comment = moved ? "after moves" : "as built"
            func ready() {
                tree.setTag(0, of: top)
            }
            ready()
            #expect(tree.isAncestor(top, of: bottom), label)
            ready()
            #expect(!tree.isAncestor(bottom, of: top), label)
            ready()
            #expect(tree.isDescendant(bottom, of: top), label)
            ready()
            #expect(!tree.isDescendant(top, of: bottom), label)
            ready()
            #expect(tree.isAncestor(middle, of: bottom), label)
            ready()
            #expect(!tree.isAncestor(side, of: bottom), label)
            ready()
            #expect(tree.isAncestor(middle, of: side), label)
            ready()
            #expect(tree.subtreeSize(of: top) == n, label)
            ready()
            #expect(tree.subtreeSize(of: middle) == Self.depth / 2 + 1, label)
            #expect(tree.depth(of: bottom) == Self.depth - 1, label)
            #expect(tree.depth(of: side) == Self.depth / 2 + 1, label)
            #expect(tree.root(of: bottom) == top, label)
            ready()
            let groups = tree.group(.descendants, of: top, byTags: [0, 7, 77])
            #expect(groups[0]?.count == Self.depth / 10 - 1, label) // the top itself is left out
            #expect(groups[7]?.count == Self.depth / 10, label)
            #expect(groups[77] == [side], label)
            #expect(groups[7]?.first.map { tree.depth(of: $0) } == 7, label)
            ready()
            let types = tree.group(.descendants, of: top, byTypes: [Ty.b, Ty.c])
            #expect(types[Ty.b]?.count == Self.depth / 2, label)
            #expect(types[Ty.c] == [side], label)
            ready()
            let ancestors = tree.group(.ancestors, of: bottom, byTags: [9, 0])
            #expect(ancestors[0]?.count == Self.depth / 10, label)
            #expect(ancestors[0]?.last == top, label)
            #expect(ancestors[9]?.count == Self.depth / 10 - 1, label) // bottom (tag 9) left out
            #expect(ancestors[9]?.first.map { tree.depth(of: $0) } == Self.depth - 11, label)
            #expect(tree.first(.ancestors, of: bottom, withTags: [0]).map { tree.depth(of: $0) } == Self.depth - 10, label)
            ready()
            #expect(tree.lowestCommonAncestor(bottom, side) == middle, label)
            ready()
            #expect(tree.lowestCommonAncestor(top, bottom) == top, label)
            ready()
            #expect(tree.lowestCommonAncestor(bottom, top) == top, label)
            ready()
            var count = 0
            var last: NodeID? = nil
            for d in tree.descendants(of: top) {
                count += 1
                last = d
            }
            #expect(count == n - 1, label)
            #expect(last == side, label) // side was appended after the chain went on below the middle
            #expect(Array(tree.ancestors(of: bottom)).count == Self.depth - 1, label)
            #expect(tree.recursiveSubviews(of: top).count == n - 1, label)
        }
    }

    @Test func graftAndRemoveAMillionDeepChain() throws {
        var (tree, top, _, bottom, side) = Self.chain()
        let n = Self.depth + 1
        var target = ViewTree()
        let host = target.makeNode(tag: -1, type: Ty.d)
        var visits = 0
        var copyOfBottom: NodeID? = nil
        let copy = target.graft(top, of: tree, under: host) { s, c in
            visits += 1
            if s == bottom { copyOfBottom = c }
        }
        #expect(visits == n)
        #expect(target.count == n + 1)
        #expect(target.parent(of: copy) == host)
        let cb = try #require(copyOfBottom)
        #expect(target.depth(of: cb) == Self.depth)
        #expect(target.tag(of: cb) == tree.tag(of: bottom))
        #expect(target.isAncestor(host, of: cb))
        target._checkInvariants()

        // Remove the whole chain from the source: no recursion, every slot freed.
        tree.removeSubtree(top)
        #expect(tree.isEmpty)
        #expect(!tree.contains(bottom) && !tree.contains(side) && !tree.contains(top))
        tree._checkInvariants()
        // And the copy from under its host.
        target.removeSubtree(copy)
        #expect(target.count == 1)
        target._checkInvariants()
        #expect(target.kids(host).isEmpty)
    }

    @Test func aMillionDeepChainFromTheBuilder() {
        var b = ViewTreeBuilder(minimumCapacity: Self.depth)
        let top = b.open(tag: 0, type: Ty.a)
        var bottom = top
        for i in 1 ..< Self.depth { bottom = b.open(tag: i % 10, type: Ty.b) }
        #expect(b.depth == Self.depth)
        for _ in 0 ..< Self.depth { b.close() }
        let tree = b.finish()
        tree._checkInvariants()
        #expect(tree.isAncestor(top, of: bottom))
        #expect(tree.subtreeSize(of: top) == Self.depth)
        #expect(tree.group(.descendants, of: top, byTags: [3])[3]?.count == Self.depth / 10)
        // Dropping the last reference frees it without recursion (the test would crash otherwise).
    }
}
