import Testing
@testable import RelativeViewCore

/// Classes for the subclass queries (unique names: the registry is process-wide).
class CoreQueryBase {}
class CoreQuerySub: CoreQueryBase {}
final class CoreQuerySubSub: CoreQuerySub {}
final class CoreQueryOther {}

/// Every query, on a fresh and on a stale index, against hand-written answers and oracles.
@Suite struct QueryTests {
    /// ```
    /// R (0, A)                 S (1, A)
    /// ├── a (1, B)             └── s1 (2, B)
    /// │   ├── a1 (2, A)
    /// │   │   └── a11 (1, C)
    /// │   └── a2 (3, B)
    /// ├── b (2, C)
    /// │   └── b1 (1, A)
    /// └── c (3, A)
    /// ```
    struct Fixture {
        var tree = ViewTree()
        let R, a, a1, a11, a2, b, b1, c, S, s1: NodeID
        var all: [NodeID] { [R, a, a1, a11, a2, b, b1, c, S, s1] }

        init() {
            R = tree.makeNode(tag: 0, type: Ty.a)
            a = tree.appendChild(tag: 1, type: Ty.b, to: R)
            a1 = tree.appendChild(tag: 2, type: Ty.a, to: a)
            a11 = tree.appendChild(tag: 1, type: Ty.c, to: a1)
            a2 = tree.appendChild(tag: 3, type: Ty.b, to: a)
            b = tree.appendChild(tag: 2, type: Ty.c, to: R)
            b1 = tree.appendChild(tag: 1, type: Ty.a, to: b)
            c = tree.appendChild(tag: 3, type: Ty.a, to: R)
            S = tree.makeNode(tag: 1, type: Ty.a)
            s1 = tree.appendChild(tag: 2, type: Ty.b, to: S)
            tree._checkInvariants()
        }
    }

    /// The moved copy's index really was rewritten: on a tree of several blocks, some node's
    /// tokens sit elsewhere than in the built copy.
    @Test func builtAndMovedCopiesReallyDiffer() {
        var b = ViewTreeBuilder()
        b.open(type: Ty.a)
        for _ in 0 ..< 300 {
            b.open(type: Ty.b)
            b.open(type: Ty.c)
            b.close()
            b.close()
        }
        b.close()
        let tree = b.finish()
        let (built, moved) = (builtCopy(tree), movedCopy(tree))
        #expect(built._storage.version != moved._storage.version)
        let differ = (0 ..< tree.slotCount).contains { i in
            built._storage.tour.span[i].enter != moved._storage.tour.span[i].enter
        }
        #expect(differ)
    }

    // MARK: Ancestor / descendant / sibling predicates

    @Test func isAncestorAndIsDescendant() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, true) { $0.isAncestor(f.R, of: f.a11) }
        expectBoth(t, true) { $0.isAncestor(f.a, of: f.a11) }
        expectBoth(t, true) { $0.isAncestor(f.a1, of: f.a11) }
        expectBoth(t, true) { $0.isAncestor(f.S, of: f.s1) }
        expectBoth(t, false) { $0.isAncestor(f.a11, of: f.a11) }
        expectBoth(t, false) { $0.isAncestor(f.R, of: f.R) }
        expectBoth(t, false) { $0.isAncestor(f.a11, of: f.R) }
        expectBoth(t, false) { $0.isAncestor(f.b, of: f.a11) }
        expectBoth(t, false) { $0.isAncestor(f.a2, of: f.a11) }
        expectBoth(t, false) { $0.isAncestor(f.R, of: f.s1) }
        expectBoth(t, false) { $0.isAncestor(f.R, of: f.S) }
        expectBoth(t, true) { $0.isDescendant(f.a11, of: f.R) }
        expectBoth(t, true) { $0.isDescendant(f.b1, of: f.b) }
        expectBoth(t, false) { $0.isDescendant(f.R, of: f.a11) }
        expectBoth(t, false) { $0.isDescendant(f.a, of: f.a) }
        expectBoth(t, false) { $0.isDescendant(f.c, of: f.b) }
        // Every pair against the parent walk.
        for x in f.all {
            for y in f.all {
                let expected = oracleAncestors(t, y).contains(x)
                expectBoth(t, expected, "\(x) ancestor of \(y)") { $0.isAncestor(x, of: y) }
                expectBoth(t, expected, "\(y) descendant of \(x)") { $0.isDescendant(y, of: x) }
            }
        }
    }

    @Test func isSiblingIsDirectOnly() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, true) { $0.isSibling(f.a, of: f.b) }
        expectBoth(t, true) { $0.isSibling(f.b, of: f.a) }
        expectBoth(t, true) { $0.isSibling(f.a, of: f.c) }
        expectBoth(t, true) { $0.isSibling(f.a1, of: f.a2) }
        expectBoth(t, false) { $0.isSibling(f.a, of: f.a) }
        expectBoth(t, false) { $0.isSibling(f.a, of: f.a1) }
        expectBoth(t, false) { $0.isSibling(f.a1, of: f.b1) } // cousins
        expectBoth(t, false) { $0.isSibling(f.R, of: f.S) } // roots are never siblings
        expectBoth(t, false) { $0.isSibling(f.R, of: f.R) }
        expectBoth(t, false) { $0.isSibling(f.a11, of: f.s1) }
        for x in f.all {
            for y in f.all {
                let expected = x != y && t.parent(of: x) != nil && t.parent(of: x) == t.parent(of: y)
                expectBoth(t, expected, "\(x) sibling of \(y)") { $0.isSibling(x, of: y) }
            }
        }
    }

    // MARK: Sequences

    @Test func ancestorsNearestFirst() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [f.a1, f.a, f.R]) { Array($0.ancestors(of: f.a11)) }
        expectBoth(t, [f.b, f.R]) { Array($0.ancestors(of: f.b1)) }
        expectBoth(t, []) { Array($0.ancestors(of: f.R)) }
        expectBoth(t, [f.S]) { Array($0.ancestors(of: f.s1)) }
        for x in f.all { expectBoth(t, oracleAncestors(t, x)) { Array($0.ancestors(of: x)) } }
    }

    @Test func descendantsInPreOrder() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [f.a, f.a1, f.a11, f.a2, f.b, f.b1, f.c]) { Array($0.descendants(of: f.R)) }
        expectBoth(t, [f.a1, f.a11, f.a2]) { Array($0.descendants(of: f.a)) }
        expectBoth(t, [f.a11]) { Array($0.descendants(of: f.a1)) }
        expectBoth(t, []) { Array($0.descendants(of: f.a11)) }
        expectBoth(t, [f.s1]) { Array($0.descendants(of: f.S)) }
        for x in f.all { expectBoth(t, oracleDescendants(t, x)) { Array($0.descendants(of: x)) } }
    }

    @Test func searchesOfDescendantsAndSiblingsFindTheFirstInOrder() {
        let f = Fixture()
        let t = f.tree
        // Tags 1: a, a11, b1 in pre-order under R; 3: a2, c.
        expectBoth(t, f.a) { $0.first(.descendants, of: f.R, withTags: [1]) }
        expectBoth(t, f.a2, "the first in pre-order, whichever tag is asked first") { $0.first(.descendants, of: f.R, withTags: [3, 9]) }
        expectBoth(t, f.a11) { $0.first(.descendants, of: f.a, withTags: [1]) }
        expectBoth(t, nil, "never the node itself") { $0.first(.descendants, of: f.a11, withTags: [1]) }
        expectBoth(t, nil, "b is of type C, but not its own descendant") { $0.first(.descendants, of: f.b, withTypes: [Ty.c]) }
        expectBoth(t, f.a11) { $0.first(.descendants, of: f.R, withTypes: [Ty.c]) }
        expectBoth(t, f.b1) { tree in tree.first(.descendants, of: f.b) { tree.tag(of: $0) == 1 } }
        // A long tag list takes the table path.
        expectBoth(t, f.a2) { $0.first(.descendants, of: f.R, withTags: Array(3 ..< 20)) }
        expectBoth(t, f.c) { $0.first(.siblings, of: f.a, withTags: [3]) }
        expectBoth(t, f.a, "never the node itself") { $0.first(.siblings, of: f.c, withTags: [1, 3]) }
        expectBoth(t, f.b) { $0.first(.siblings, of: f.a, withTypes: [Ty.c, Ty.a]) }
        expectBoth(t, f.c) { $0.first(.siblings, of: f.a, withTags: Array(3 ..< 20)) }
        expectBoth(t, nil, "a root has no siblings") { tree in tree.first(.siblings, of: f.R) { _ in true } }
        // Against the walks they stop early on.
        for x in f.all {
            for tag in 0 ... 3 {
                expectBoth(t, oracleDescendants(t, x).first { t.tag(of: $0) == tag }) { $0.first(.descendants, of: x, withTags: [tag]) }
                expectBoth(t, Array(t.siblings(of: x)).first { t.tag(of: $0) == tag }) { $0.first(.siblings, of: x, withTags: [tag]) }
            }
        }
    }

    /// Children: a relation of its own, with every form and key.
    @Test func childrenAreARelationWithEveryFormAndKey() {
        let f = Fixture()
        let t = f.tree
        // R ─ a (1, B), b (2, C), c (3, A); a ─ a1 (2, A), a2 (3, B)
        #expect(t.isChild(f.a, of: f.R) && t.isChild(f.a2, of: f.a))
        #expect(!t.isChild(f.a1, of: f.R), "a grandchild is not a child")
        #expect(!t.isChild(f.R, of: f.a) && !t.isChild(f.R, of: f.R) && !t.isChild(f.S, of: f.R))
        expectBoth(t, f.b) { $0.first(.children, of: f.R, withTags: [2, 3]) }
        expectBoth(t, f.c) { $0.first(.children, of: f.R, withTypes: [Ty.a]) }
        expectBoth(t, f.c) { $0.first(.children, of: f.R, withTypeNames: ["CoreTests.A"]) }
        expectBoth(t, f.c) { $0.first(.children, of: f.R, withTags: Array(3 ..< 20)) }
        expectBoth(t, nil) { $0.first(.children, of: f.a11, withTags: [1]) }
        expectBoth(t, f.a2) { tree in tree.first(.children, of: f.a) { tree.tag(of: $0) == 3 } }
        expectBoth(t, [2: [f.b], 3: [f.c]]) { $0.group(.children, of: f.R, byTags: [2, 3, 9]) }
        expectBoth(t, [Ty.b: [f.a], Ty.a: [f.c]]) { $0.group(.children, of: f.R, byTypes: [Ty.a, Ty.b]) }
        expectBoth(t, ["CoreTests.A": [f.a1], "CoreTests.B": [f.a2]]) { $0.group(.children, of: f.a, byTypeNames: ["CoreTests.A", "CoreTests.B"]) }
        expectBoth(t, [1: [f.a, f.b, f.c]]) { $0.group(.children, of: f.R) { _ in 1 } }
        expectBoth(t, [:]) { $0.group(.children, of: f.a11, byTags: [1]) }
        // Against the list of children, for every node and tag.
        for x in f.all {
            for tag in 0 ... 3 {
                let expected = Array(t.children(of: x)).filter { t.tag(of: $0) == tag }
                expectBoth(t, expected.isEmpty ? [:] : [tag: expected]) { $0.group(.children, of: x, byTags: [tag]) }
                expectBoth(t, expected.first) { $0.first(.children, of: x, withTags: [tag]) }
            }
        }
    }

    /// Following siblings: the children of the parent after the node, nearest first, with
    /// every form and key; none for a root or a last child.
    @Test func followingSiblingsAreARelationWithEveryFormAndKey() {
        let f = Fixture()
        let t = f.tree
        // R ─ a (1, B), b (2, C), c (3, A); a ─ a1 (2, A), a2 (3, B)
        #expect(t.isRelative(f.b, .followingSiblings, of: f.a) && t.isRelative(f.c, .followingSiblings, of: f.a))
        #expect(!t.isRelative(f.a, .followingSiblings, of: f.b), "a sibling before is not a following one")
        #expect(!t.isRelative(f.a, .followingSiblings, of: f.a) && !t.isRelative(f.S, .followingSiblings, of: f.R))
        #expect(!t.isRelative(f.a1, .followingSiblings, of: f.a), "a nephew is not a sibling")
        expectBoth(t, f.b) { $0.first(.followingSiblings, of: f.a, withTags: [2, 3]) }
        expectBoth(t, f.c) { $0.first(.followingSiblings, of: f.b, withTypes: [Ty.a]) }
        expectBoth(t, f.c) { $0.first(.followingSiblings, of: f.a, withTypeNames: ["CoreTests.A"]) }
        expectBoth(t, nil) { $0.first(.followingSiblings, of: f.c, withTags: [1, 2, 3]) }
        expectBoth(t, nil) { $0.first(.followingSiblings, of: f.R, withTags: [1]) }
        expectBoth(t, nil) { $0.first(.followingSiblings, of: f.S, withTags: [0]) }
        expectBoth(t, f.c) { tree in tree.first(.followingSiblings, of: f.a) { tree.tag(of: $0) == 3 } }
        expectBoth(t, [2: [f.b], 3: [f.c]]) { $0.group(.followingSiblings, of: f.a, byTags: [1, 2, 3]) }
        expectBoth(t, [Ty.a: [f.c]]) { $0.group(.followingSiblings, of: f.b, byTypes: [Ty.a, Ty.b]) }
        expectBoth(t, [1: [f.b, f.c]]) { $0.group(.followingSiblings, of: f.a) { _ in 1 } }
        expectBoth(t, [:]) { $0.group(.followingSiblings, of: f.a2, byTags: [1, 2, 3]) }
        // Against the siblings after the node in the list of its parent's children, for every
        // node, every other node and every tag.
        for x in f.all {
            let after = t.parent(of: x).map { p in Array(t.children(of: p).drop { $0 != x }.dropFirst()) } ?? []
            for y in f.all { expectBoth(t, after.contains(y)) { $0.isRelative(y, .followingSiblings, of: x) } }
            for tag in 0 ... 3 {
                let expected = after.filter { t.tag(of: $0) == tag }
                expectBoth(t, expected.isEmpty ? [:] : [tag: expected]) { $0.group(.followingSiblings, of: x, byTags: [tag]) }
                expectBoth(t, expected.first) { $0.first(.followingSiblings, of: x, withTags: [tag]) }
            }
        }
    }

    /// Children, siblings and descendants are collections: `count`, `first`, indices and
    /// subscripts give what the walk gives.
    @Test func relativesAreCollections() {
        let f = Fixture()
        for t in [builtCopy(f.tree), movedCopy(f.tree)] {
            for x in f.all {
                let children = t.children(of: x), siblings = t.siblings(of: x), descendants = t.descendants(of: x)
                // `Array(_:)` walks with the runs' own iterators.
                let walked = (Array(children), Array(siblings), Array(descendants))
                #expect(children.indices.map { children[$0] } == walked.0 && children.count == walked.0.count && children.first == walked.0.first)
                #expect(siblings.indices.map { siblings[$0] } == walked.1 && siblings.count == walked.1.count && siblings.first == walked.1.first)
                #expect(descendants.indices.map { descendants[$0] } == walked.2 && descendants.first == walked.2.first)
                #expect(descendants.count == walked.2.count && descendants.count == t.subtreeSize(of: x) - 1)
                #expect(children.isEmpty == walked.0.isEmpty && siblings.isEmpty == walked.1.isEmpty && descendants.isEmpty == walked.2.isEmpty)
                #expect(children.startIndex < children.endIndex || children.isEmpty)
            }
        }
        #expect(Array(f.tree.descendants(of: f.a).dropFirst()) == [f.a11, f.a2])
        #expect(f.tree.children(of: f.R).dropFirst().first == f.b)
    }

    @Test func siblingsInOrderWithoutSelf() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [f.b, f.c]) { Array($0.siblings(of: f.a)) }
        expectBoth(t, [f.a, f.c]) { Array($0.siblings(of: f.b)) }
        expectBoth(t, [f.a, f.b]) { Array($0.siblings(of: f.c)) }
        expectBoth(t, [f.a2]) { Array($0.siblings(of: f.a1)) }
        expectBoth(t, []) { Array($0.siblings(of: f.a11)) }
        expectBoth(t, []) { Array($0.siblings(of: f.R)) }
        expectBoth(t, []) { Array($0.siblings(of: f.S)) }
    }

    @Test func depthRootAndSubtreeSize() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [0, 1, 2, 3, 2, 1, 2, 1, 0, 1]) { tree in f.all.map { tree.depth(of: $0) } }
        expectBoth(t, [f.R, f.R, f.R, f.R, f.R, f.R, f.R, f.R, f.S, f.S]) { tree in f.all.map { tree.root(of: $0) } }
        expectBoth(t, [8, 4, 2, 1, 1, 2, 1, 1, 2, 1]) { tree in f.all.map { tree.subtreeSize(of: $0) } }
        for x in f.all {
            expectBoth(t, oracleDescendants(t, x).count + 1) { $0.subtreeSize(of: x) }
        }
    }

    @Test func lowestCommonAncestor() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, f.a11) { $0.lowestCommonAncestor(f.a11, f.a11) }
        expectBoth(t, f.R) { $0.lowestCommonAncestor(f.R, f.R) }
        expectBoth(t, f.a) { $0.lowestCommonAncestor(f.a, f.a11) }
        expectBoth(t, f.a) { $0.lowestCommonAncestor(f.a11, f.a) }
        expectBoth(t, f.R) { $0.lowestCommonAncestor(f.R, f.a11) }
        expectBoth(t, f.a) { $0.lowestCommonAncestor(f.a11, f.a2) } // cousins of different depth
        expectBoth(t, f.a) { $0.lowestCommonAncestor(f.a2, f.a11) }
        expectBoth(t, f.R) { $0.lowestCommonAncestor(f.a11, f.b1) }
        expectBoth(t, f.R) { $0.lowestCommonAncestor(f.a1, f.b1) } // cousins of one depth
        expectBoth(t, f.R) { $0.lowestCommonAncestor(f.b, f.c) }
        expectBoth(t, nil) { $0.lowestCommonAncestor(f.a11, f.s1) }
        expectBoth(t, nil) { $0.lowestCommonAncestor(f.R, f.S) }
        expectBoth(t, nil) { $0.lowestCommonAncestor(f.s1, f.c) }
        for x in f.all {
            for y in f.all {
                let xs = [x] + oracleAncestors(t, x)
                let ys = Set([y] + oracleAncestors(t, y))
                let expected = xs.first { ys.contains($0) }
                expectBoth(t, expected, "lca \(x) \(y)") { $0.lowestCommonAncestor(x, y) }
            }
        }
    }

    // MARK: firstAncestor

    @Test func firstAncestorThreeWays() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, f.R) { tree in tree.first(.ancestors, of: f.a11) { tree.tag(of: $0) == 0 } }
        expectBoth(t, f.a1) { tree in tree.first(.ancestors, of: f.a11) { _ in true } }
        expectBoth(t, nil) { tree in tree.first(.ancestors, of: f.R) { _ in true } }
        expectBoth(t, nil) { tree in tree.first(.ancestors, of: f.a11) { $0 == f.a11 } } // never self
        expectBoth(t, f.a) { $0.first(.ancestors, of: f.a11, withTypes: [Ty.b]) }
        expectBoth(t, f.a1) { $0.first(.ancestors, of: f.a11, withTypes: [Ty.a]) }
        expectBoth(t, f.a1) { $0.first(.ancestors, of: f.a11, withTypes: [Ty.b, Ty.a]) } // nearest
        expectBoth(t, nil) { $0.first(.ancestors, of: f.a11, withTypes: [Ty.c]) } // self is C: not counted
        expectBoth(t, nil) { $0.first(.ancestors, of: f.a11, withTypes: []) }
        expectBoth(t, nil) { $0.first(.ancestors, of: f.R, withTypes: Ty.all) }
        expectBoth(t, f.a) { $0.first(.ancestors, of: f.a11, withTags: [1]) } // self has tag 1: not counted
        expectBoth(t, f.R) { $0.first(.ancestors, of: f.a11, withTags: [0]) }
        expectBoth(t, f.a1) { $0.first(.ancestors, of: f.a11, withTags: [3, 0, 2]) }
        expectBoth(t, nil) { $0.first(.ancestors, of: f.a11, withTags: [9]) }
        expectBoth(t, nil) { $0.first(.ancestors, of: f.a11, withTags: []) }
        expectBoth(t, f.S) { $0.first(.ancestors, of: f.s1, withTags: [1, 1]) }
    }

    // MARK: groupAncestors

    @Test func groupAncestorsThreeWays() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [0: [f.R], 1: [f.a], 2: [f.a1]]) { $0.group(.ancestors, of: f.a11, byTags: [0, 1, 2, 9]) }
        expectBoth(t, [1: [f.a]]) { $0.group(.ancestors, of: f.a11, byTags: [1, 1, 1]) } // no duplicates
        expectBoth(t, [:]) { $0.group(.ancestors, of: f.a11, byTags: []) }
        expectBoth(t, [:]) { $0.group(.ancestors, of: f.a11, byTags: [7, 8]) }
        expectBoth(t, [:]) { $0.group(.ancestors, of: f.R, byTags: [0, 1, 2, 3]) }
        expectBoth(t, [Ty.a: [f.a1, f.R], Ty.b: [f.a]]) { $0.group(.ancestors, of: f.a11, byTypes: [Ty.a, Ty.b, Ty.c]) }
        expectBoth(t, [Ty.b: [f.a]]) { $0.group(.ancestors, of: f.a11, byTypes: [Ty.b, Ty.b]) }
        expectBoth(t, [:]) { $0.group(.ancestors, of: f.a11, byTypes: []) }
        expectBoth(t, [:]) { $0.group(.ancestors, of: f.a11, byTypes: [Ty.d]) }
        // Two types sharing one key: one group, nearest first, interleaved.
        expectBoth(t, ["x": [f.a1, f.a, f.R]]) { $0.group(.ancestors, of: f.a11, keyingTypes: [Ty.a: "x", Ty.b: "x"]) }
        expectBoth(t, ["x": [f.a1, f.R], "y": [f.a]]) { $0.group(.ancestors, of: f.a11, keyingTypes: [Ty.a: "x", Ty.b: "y", Ty.d: "x"]) }
        expectBoth(t, [:]) { $0.group(.ancestors, of: f.a11, keyingTypes: [TypeID: String]()) }
        // By a closure; nil leaves a node out.
        expectBoth(t, [true: [f.a, f.R]]) { tree in
            tree.group(.ancestors, of: f.a11) { tree.tag(of: $0) < 2 ? true : nil }
        }
        expectBoth(t, [Ty.a: [f.a1, f.R], Ty.b: [f.a]]) { tree in
            tree.group(.ancestors, of: f.a11) { tree.typeID(of: $0) }
        }
        expectBoth(t, [Int: [NodeID]]()) { tree in tree.group(.ancestors, of: f.R) { tree.tag(of: $0) } }
        // Against the oracle, every node, every tag subset.
        for x in f.all {
            for tags in [[0], [1], [2, 3], [0, 1, 2, 3], [3, 1]] {
                let expected = oracleGroup(oracleAncestors(t, x)) { tags.contains(t.tag(of: $0)) ? t.tag(of: $0) : nil }
                expectBoth(t, expected, "\(x) \(tags)") { $0.group(.ancestors, of: x, byTags: tags) }
            }
        }
    }

    // MARK: groupDescendants

    @Test func groupDescendantsThreeWays() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [1: [f.a, f.a11, f.b1], 2: [f.a1, f.b]]) { $0.group(.descendants, of: f.R, byTags: [1, 2]) }
        expectBoth(t, [1: [f.a11], 2: [f.a1], 3: [f.a2]]) { $0.group(.descendants, of: f.a, byTags: [3, 2, 1, 0]) }
        expectBoth(t, [2: [f.a1, f.b]]) { $0.group(.descendants, of: f.R, byTags: [2, 2]) }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, byTags: []) }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, byTags: [0]) } // self is not a descendant
        expectBoth(t, [:]) { $0.group(.descendants, of: f.a11, byTags: [0, 1, 2, 3]) }
        expectBoth(t, [Ty.a: [f.a1, f.b1, f.c], Ty.c: [f.a11, f.b]]) { $0.group(.descendants, of: f.R, byTypes: [Ty.a, Ty.c]) }
        expectBoth(t, [Ty.b: [f.a2]]) { $0.group(.descendants, of: f.a, byTypes: [Ty.b, Ty.b]) }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, byTypes: []) }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, byTypes: [Ty.d]) }
        expectBoth(t, ["x": [f.a1, f.a11, f.b, f.b1, f.c]]) { $0.group(.descendants, of: f.R, keyingTypes: [Ty.a: "x", Ty.c: "x"]) }
        expectBoth(t, [0: [f.a, f.a1, f.a2, f.b1, f.c], 1: [f.a11, f.b]]) {
            $0.group(.descendants, of: f.R, keyingTypes: [Ty.a: 0, Ty.b: 0, Ty.c: 1])
        }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, keyingTypes: [TypeID: Int]()) }
        expectBoth(t, [true: [f.a, f.a11, f.a2, f.b1, f.c], false: [f.a1, f.b]]) { tree in
            tree.group(.descendants, of: f.R) { tree.tag(of: $0) % 2 == 1 }
        }
        expectBoth(t, [3: [f.a2, f.c]]) { tree in
            tree.group(.descendants, of: f.R) { tree.tag(of: $0) == 3 ? 3 : nil }
        }
        for x in f.all {
            for tags in [[0], [1], [2, 3], [0, 1, 2, 3], [3, 1]] {
                let expected = oracleGroup(oracleDescendants(t, x)) { tags.contains(t.tag(of: $0)) ? t.tag(of: $0) : nil }
                expectBoth(t, expected, "\(x) \(tags)") { $0.group(.descendants, of: x, byTags: tags) }
            }
            for types in [[Ty.a], [Ty.b, Ty.c], Ty.all] {
                let expected = oracleGroup(oracleDescendants(t, x)) { types.contains(t.typeID(of: $0)) ? t.typeID(of: $0) : nil }
                expectBoth(t, expected, "\(x) \(types)") { $0.group(.descendants, of: x, byTypes: types) }
            }
        }
    }

    @Test func groupDescendantsByTypeNames() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, ["CoreTests.A": [f.a1, f.b1, f.c]]) { $0.group(.descendants, of: f.R, byTypeNames: ["CoreTests.A"]) }
        expectBoth(t, ["CoreTests.B": [f.a, f.a2], "CoreTests.C": [f.a11, f.b]]) {
            $0.group(.descendants, of: f.R, byTypeNames: ["CoreTests.B", "CoreTests.C", "CoreTests.NeverRegistered"])
        }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, byTypeNames: []) }
        expectBoth(t, [:]) { $0.group(.descendants, of: f.R, byTypeNames: ["CoreTests.NeverRegistered"]) }
    }

    /// Every relation takes type names, for its grouping and its search; a node's type name
    /// is one call, and the names in a tree can be listed.
    @Test func everyRelationTakesTypeNames() {
        let f = Fixture()
        let t = f.tree
        // R (A) ─ a (B) ─ a1 (A) ─ a11 (C); a ─ a2 (B); R ─ b (C) ─ b1 (A); R ─ c (A); S (A) ─ s1 (B)
        expectBoth(t, ["CoreTests.A": [f.a1, f.R], "CoreTests.B": [f.a]]) {
            $0.group(.ancestors, of: f.a11, byTypeNames: ["CoreTests.A", "CoreTests.B"])
        }
        expectBoth(t, ["CoreTests.C": [f.b], "CoreTests.A": [f.c]]) { $0.group(.siblings, of: f.a, byTypeNames: ["CoreTests.C", "CoreTests.A"]) }
        expectBoth(t, [:]) { $0.group(.siblings, of: f.R, byTypeNames: ["CoreTests.A"]) }
        expectBoth(t, f.a) { $0.first(.ancestors, of: f.a11, withTypeNames: ["CoreTests.B"]) }
        expectBoth(t, f.a11) { $0.first(.descendants, of: f.R, withTypeNames: ["CoreTests.C"]) }
        expectBoth(t, f.c) { $0.first(.siblings, of: f.b, withTypeNames: ["CoreTests.A"]) }
        expectBoth(t, nil) { $0.first(.siblings, of: f.b, withTypeNames: ["CoreTests.NeverRegistered"]) }
        #expect(t.typeName(of: f.a11) == "CoreTests.C")
        #expect(f.all.allSatisfy { t.typeName(of: $0) == TypeRegistry.shared.name(of: t.typeID(of: $0)) })
        #expect(t.typeNames() == ["CoreTests.A", "CoreTests.B", "CoreTests.C"], "each once, by first node in document order")
        #expect(ViewTree().typeNames().isEmpty)
    }

    @Test func groupDescendantsByTypeNamesMatchesAClassAndABareNameSharingTheName() {
        let classID = TypeRegistry.shared.typeID(for: CoreQueryOther.self)
        let name = String(describing: CoreQueryOther.self)
        let bareID = TypeRegistry.shared.typeID(named: name)
        #expect(classID != bareID)
        #expect(Set(TypeRegistry.shared.typeIDs(named: name)).isSuperset(of: [classID, bareID]))
        var tree = ViewTree()
        let r = tree.makeNode(type: bareID)
        let x = tree.appendChild(type: classID, to: r)
        let y = tree.appendChild(type: bareID, to: x)
        let z = tree.appendChild(type: Ty.a, to: r)
        let w = tree.appendChild(type: classID, to: r)
        _ = z
        expectBoth(tree, [name: [x, y, w]]) { $0.group(.descendants, of: r, byTypeNames: [name]) }
        // Exact type matching keeps them apart.
        expectBoth(tree, [classID: [x, w]]) { $0.group(.descendants, of: r, byTypes: [classID]) }
    }

    // MARK: groupSiblings

    @Test func groupSiblingsThreeWays() {
        let f = Fixture()
        let t = f.tree
        expectBoth(t, [1: [f.a], 3: [f.c]]) { $0.group(.siblings, of: f.b, byTags: [1, 3, 2]) } // self left out
        expectBoth(t, [2: [f.b]]) { $0.group(.siblings, of: f.c, byTags: [2, 2]) }
        expectBoth(t, [:]) { $0.group(.siblings, of: f.b, byTags: []) }
        expectBoth(t, [:]) { $0.group(.siblings, of: f.R, byTags: [0, 1, 2, 3]) } // a root has no siblings
        expectBoth(t, [:]) { $0.group(.siblings, of: f.a11, byTags: [1]) } // an only child neither
        expectBoth(t, [Ty.a: [f.c], Ty.b: [f.a]]) { $0.group(.siblings, of: f.b, byTypes: [Ty.a, Ty.b, Ty.c]) }
        expectBoth(t, [Ty.c: [f.b]]) { $0.group(.siblings, of: f.a, byTypes: [Ty.c]) }
        expectBoth(t, [:]) { $0.group(.siblings, of: f.a, byTypes: []) }
        expectBoth(t, ["k": [f.a, f.c]]) { $0.group(.siblings, of: f.b, keyingTypes: [Ty.a: "k", Ty.b: "k"]) }
        expectBoth(t, ["k": [f.a, f.b]]) { $0.group(.siblings, of: f.c, keyingTypes: [Ty.b: "k", Ty.c: "k"]) }
        expectBoth(t, [:]) { $0.group(.siblings, of: f.b, keyingTypes: [TypeID: String]()) }
        expectBoth(t, [0: [f.a, f.c]]) { tree in tree.group(.siblings, of: f.b) { tree.tag(of: $0) == 2 ? nil : 0 } }
        expectBoth(t, [Int: [NodeID]]()) { tree in tree.group(.siblings, of: f.S) { tree.tag(of: $0) } }
        for x in f.all {
            let sibs = t.parent(of: x).map { t.kids($0).filter { $0 != x } } ?? []
            let expected = oracleGroup(sibs) { [1, 3].contains(t.tag(of: $0)) ? t.tag(of: $0) : nil }
            expectBoth(t, expected, "\(x)") { $0.group(.siblings, of: x, byTags: [1, 3]) }
        }
    }

    // MARK: recursiveSubviews

    @Test func recursiveSubviewsOrder() {
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        let a = tree.appendChild(type: Ty.a, to: root)
        let b = tree.appendChild(type: Ty.b, to: root)
        let a1 = tree.appendChild(type: Ty.a, to: a)
        let a11 = tree.appendChild(type: Ty.b, to: a1)
        let b1 = tree.appendChild(type: Ty.a, to: b)
        expectBoth(tree, [a, b, a1, a11, b1]) { $0.recursiveSubviews(of: root) }
        expectBoth(tree, [a1, a11]) { $0.recursiveSubviews(of: a) }
        expectBoth(tree, []) { $0.recursiveSubviews(of: a11) }
        expectBoth(tree, [b, a11]) { tree in tree.recursiveSubviews(of: root) { tree.typeID(of: $0) == Ty.b } }

        let f = Fixture()
        expectBoth(f.tree, [f.a, f.b, f.c, f.a1, f.a2, f.a11, f.b1]) { $0.recursiveSubviews(of: f.R) }
        // The definition, `subviews + subviews.flatMap { $0.recursiveSubviews }`, as an oracle.
        func definition(_ t: ViewTree, _ n: NodeID) -> [NodeID] {
            let subviews = t.kids(n)
            return subviews + subviews.flatMap { definition(t, $0) }
        }
        for x in f.all { expectBoth(f.tree, definition(f.tree, x)) { $0.recursiveSubviews(of: x) } }
    }

    @Test func recursiveSubviewsOfSubclass() {
        let reg = TypeRegistry.shared
        let base = reg.typeID(for: CoreQueryBase.self)
        let sub = reg.typeID(for: CoreQuerySub.self)
        let subsub = reg.typeID(for: CoreQuerySubSub.self)
        let other = reg.typeID(for: CoreQueryOther.self)
        #expect(Set([base, sub, subsub, other]).count == 4)
        #expect(reg.typeID(for: CoreQuerySub.self) == sub) // stable
        #expect(reg.existingTypeID(for: CoreQuerySub.self) == sub)
        #expect(reg.name(of: sub) == "CoreQuerySub")
        var tree = ViewTree()
        let r = tree.makeNode(type: base)           // the start node itself is never listed
        let x = tree.appendChild(type: base, to: r)
        let y = tree.appendChild(type: sub, to: r)
        let z = tree.appendChild(type: subsub, to: x)
        let w = tree.appendChild(type: other, to: x)
        let v = tree.appendChild(type: Ty.a, to: y)  // a bare name is no class
        let u = tree.appendChild(type: sub, to: w)
        _ = v
        expectBoth(tree, [x, y, z, u]) { $0.recursiveSubviews(of: r, subclassOf: CoreQueryBase.self) }
        expectBoth(tree, [y, z, u]) { $0.recursiveSubviews(of: r, subclassOf: CoreQuerySub.self) }
        expectBoth(tree, [z]) { $0.recursiveSubviews(of: r, subclassOf: CoreQuerySubSub.self) }
        expectBoth(tree, [w]) { $0.recursiveSubviews(of: r, subclassOf: CoreQueryOther.self) }
        expectBoth(tree, [z, u]) { $0.recursiveSubviews(of: x, subclassOf: CoreQueryBase.self) }
        expectBoth(tree, []) { $0.recursiveSubviews(of: z, subclassOf: CoreQueryBase.self) }
    }

    // MARK: After mutations

    @Test func queriesFollowMutations() {
        var f = Fixture()
        f.tree.append(f.b, to: f.a11)   // R [a, c], a [a1, a2], a1 [a11], a11 [b], b [b1]
        f.tree._checkInvariants()
        let t = f.tree
        expectBoth(t, [f.a, f.a1, f.a11, f.b, f.b1, f.a2, f.c]) { Array($0.descendants(of: f.R)) }
        expectBoth(t, [f.b, f.a11, f.a1, f.a, f.R]) { Array($0.ancestors(of: f.b1)) }
        expectBoth(t, true) { $0.isAncestor(f.a1, of: f.b1) }
        expectBoth(t, f.a11) { $0.lowestCommonAncestor(f.b1, f.a11) }
        expectBoth(t, f.a1) { $0.lowestCommonAncestor(f.b1, f.a1) }
        expectBoth(t, f.a) { $0.lowestCommonAncestor(f.b1, f.a2) }
        expectBoth(t, 6) { $0.subtreeSize(of: f.a) }
        expectBoth(t, [1: [f.a, f.a11, f.b1], 2: [f.a1, f.b]]) { $0.group(.descendants, of: f.R, byTags: [1, 2]) }
        expectBoth(t, [f.a, f.c, f.a1, f.a2, f.a11, f.b, f.b1]) { $0.recursiveSubviews(of: f.R) }
        expectBoth(t, [f.c]) { Array($0.siblings(of: f.a)) }
    }
}
