import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// `graft(_:of:under:_:)` copies a subtree between trees (or within one); `smallerTree`
/// picks the smaller of two roots.
@Suite struct GraftTests {
    /// The shape of a subtree: tag, type and children in order.
    struct Shape: Equatable, CustomStringConvertible {
        var tag: Int
        var type: TypeID
        var children: [Shape]
        var description: String { "(\(tag) \(children.map(\.description).joined(separator: " ")))" }
    }

    static func shape(_ tree: ViewTree, _ node: NodeID) -> Shape {
        Shape(tag: tree.tag(of: node), type: tree.typeID(of: node), children: tree.kids(node).map { shape(tree, $0) })
    }

    /// ```
    /// r (1, A)
    /// ├── x (2, B)
    /// │   ├── x1 (3, C)
    /// │   └── x2 (Int.max, D)
    /// │       └── x21 (5, A)
    /// ├── y (6, B)
    /// └── z (Int.min, C)
    ///     └── z1 (8, D)
    /// ```
    static func source() -> (ViewTree, [String: NodeID]) {
        var t = ViewTree()
        var n: [String: NodeID] = [:]
        n["r"] = t.makeNode(tag: 1, type: Ty.a)
        n["x"] = t.appendChild(tag: 2, type: Ty.b, to: n["r"]!)
        n["x1"] = t.appendChild(tag: 3, type: Ty.c, to: n["x"]!)
        n["x2"] = t.appendChild(tag: Int.max, type: Ty.d, to: n["x"]!)
        n["x21"] = t.appendChild(tag: 5, type: Ty.a, to: n["x2"]!)
        n["y"] = t.appendChild(tag: 6, type: Ty.b, to: n["r"]!)
        n["z"] = t.appendChild(tag: Int.min, type: Ty.c, to: n["r"]!)
        n["z1"] = t.appendChild(tag: 8, type: Ty.d, to: n["z"]!)
        return (t, n)
    }

    @Test func graftAsANewRoot() {
        let (source, n) = Self.source()
        var target = ViewTree()
        let existing = target.makeNode(tag: 100, type: Ty.a)
        let e1 = target.appendChild(tag: 101, type: Ty.a, to: existing)
        var pairs: [(NodeID, NodeID)] = []
        let copy = target.graft(n["r"]!, of: source) { pairs.append(($0, $1)) }
        target._checkInvariants()
        expectRoot(target, copy)
        #expect(target.roots == [existing, copy])
        #expect(target.count == 2 + 8)
        #expect(Self.shape(target, copy) == Self.shape(source, n["r"]!))
        expectChildren(target, existing, [e1])
        // Pairs in pre-order on both sides.
        #expect(pairs.map(\.0) == [n["r"]!] + Array(source.descendants(of: n["r"]!)))
        #expect(pairs.map(\.1) == [copy] + Array(target.descendants(of: copy)))
        #expect(pairs.first?.1 == copy)
        for (s, c) in pairs {
            #expect(source.tag(of: s) == target.tag(of: c))
            #expect(source.typeID(of: s) == target.typeID(of: c))
            #expect(target.contains(c))
        }
        // The source is unchanged.
        #expect(source.count == 8)
        source._checkInvariants()
        // Queries on the copy.
        // Pre-order: r x x1 x2 x21 y z z1.
        #expect(target.group(.descendants, of: copy, byTags: [Int.max, Int.min, 5]) == [
            Int.max: [pairs[3].1], Int.min: [pairs[6].1], 5: [pairs[4].1],
        ])
    }

    @Test func graftUnderAParentAppendsAsLastChild() throws {
        let (source, n) = Self.source()
        var target = ViewTree()
        let p = target.makeNode(type: Ty.a)
        let first = target.appendChild(type: Ty.b, to: p)
        var visited: [NodeID] = []
        let copy = target.graft(n["x"]!, of: source, under: p) { s, _ in visited.append(s) }
        target._checkInvariants()
        expectChildren(target, p, [first, copy])
        #expect(Self.shape(target, copy) == Self.shape(source, n["x"]!))
        #expect(visited == [n["x"]!, n["x1"]!, n["x2"]!, n["x21"]!]) // not x's siblings y, z
        #expect(target.count == 2 + 4)
        // A second graft of a leaf, then of a subtree whose root is the last child.
        // Without a visit closure (graft's closure is not `rethrows`, so no `try`).
        let leaf = target.graft(n["y"]!, of: source, under: copy)
        let last = target.graft(n["z"]!, of: source, under: copy)
        target._checkInvariants()
        #expect(target.kids(copy).count == 4)
        #expect(target.kids(copy).suffix(2) == [leaf, last])
        #expect(Self.shape(target, leaf) == Shape(tag: 6, type: Ty.b, children: []))
        #expect(Self.shape(target, last) == Self.shape(source, n["z"]!))
        #expect(target.tag(of: last) == Int.min)
    }

    @Test func graftWithinOneTreeCopiesASnapshot() throws {
        var (tree, n) = Self.source()
        let before = Self.shape(tree, n["x"]!)
        // Copy x under its own descendant x21: the copy is x as it was before the graft.
        let source = tree
        let copy = tree.graft(n["x"]!, of: source, under: n["x21"]!)
        tree._checkInvariants()
        #expect(tree.parent(of: copy) == n["x21"]!)
        #expect(Self.shape(tree, copy) == before)
        #expect(tree.count == 8 + 4)
        #expect(source.count == 8)
        #expect(Self.shape(source, n["x"]!) == before)
        #expect(tree.isAncestor(n["x"]!, of: copy))
    }

    @Test(arguments: [1, 10, 100, 1000])
    func graftARandomTreePreservesShape(n: Int) {
        var rng = SplitMix64(seed: UInt64(n))
        var source = ViewTree()
        var ids = [source.makeNode(tag: 0, type: Ty.a)]
        for i in 1 ..< n {
            // Favour recent nodes: deep and bushy mixed.
            let p = ids[max(0, ids.count - 1 - Int.random(in: 0 ..< 5, using: &rng))]
            ids.append(source.appendChild(tag: i, type: Ty.all.randomElement(using: &rng)!, to: p))
        }
        // Free a few slots in the target first so copies land in reused slots.
        var target = ViewTree()
        let host = target.makeNode(type: Ty.d)
        let junk = target.appendChild(type: Ty.d, to: host)
        for _ in 0 ..< 5 { target.appendChild(type: Ty.d, to: junk) }
        target.removeSubtree(junk)
        var pairs: [(NodeID, NodeID)] = []
        let copy = target.graft(ids[0], of: source, under: host) { pairs.append(($0, $1)) }
        target._checkInvariants()
        #expect(target.count == 1 + n)
        #expect(Self.shape(target, copy) == Self.shape(source, ids[0]))
        #expect(pairs.map(\.0) == [ids[0]] + oracleDescendants(source, ids[0]))
        #expect(pairs.map(\.1) == [copy] + oracleDescendants(target, copy))
        expectChildren(target, host, [copy])
    }

    /// A graft into an empty tree, as a new root, is streamed through a builder from
    /// `streamedGraftMinimum` nodes on (the facade's move of a tree into a store of its own);
    /// below, and into a tree with slots, each node is inserted. Both copy shape, tags (wide
    /// ones too), types, geometry and attributes, report the pairs in pre-order, and leave a
    /// tree that takes further changes.
    @Test(arguments: [1, ViewTree.streamedGraftMinimum - 1, ViewTree.streamedGraftMinimum, 1000])
    func graftIntoAnEmptyTreeCopiesEverything(n: Int) {
        var rng = SplitMix64(seed: 900 &+ UInt64(n))
        var source = ViewTree()
        let outside = source.makeNode(tag: -1, type: Ty.a)
        var ids = [source.appendChild(tag: 0, type: Ty.a, to: outside)]
        for i in 1 ..< n {
            let p = ids[max(0, ids.count - 1 - Int.random(in: 0 ..< 6, using: &rng))]
            let tag = i % 7 == 0 ? Int.max - i : i % 11 == 0 ? Int.min + i : i
            ids.append(source.appendChild(tag: tag, type: Ty.all.randomElement(using: &rng)!, to: p))
        }
        for id in ids where Bool.random(using: &rng) {
            source.setFrameOrigin(SIMD2(Double(id.index), 2), of: id)
            source.setFrameSize(SIMD2(3, Double(id.index)), of: id)
        }
        for id in ids where Int.random(in: 0 ..< 3, using: &rng) == 0 { source.setAttribute(.id, "id\(id.index)", of: id) }
        var target = ViewTree()
        var pairs: [(NodeID, NodeID)] = []
        let copy = target.graft(ids[0], of: source) { pairs.append(($0, $1)) }
        target._checkInvariants()
        #expect(target.count == n && target.rootCount == 1)
        #expect(Self.shape(target, copy) == Self.shape(source, ids[0]))
        #expect(pairs.map(\.0) == [ids[0]] + oracleDescendants(source, ids[0]))
        #expect(pairs.map(\.1) == [copy] + oracleDescendants(target, copy))
        for (old, new) in pairs {
            #expect(target.frameOrigin(of: new) == source.frameOrigin(of: old) && target.frameSize(of: new) == source.frameSize(of: old))
            #expect(target.attribute(.id, of: new) == source.attribute(.id, of: old))
        }
        // The copy takes changes like any tree.
        let added = target.appendChild(tag: 42, type: Ty.b, to: pairs[n / 2].1)
        let removed = n > 1 ? pairs[n - 1].1 : added
        let removedSize = target.subtreeSize(of: removed)
        target.removeSubtree(removed)
        target._checkInvariants()
        #expect(target.count == n + 1 - removedSize)
        #expect(target.subtreeSize(of: copy) == target.count)
        if n > 1 { #expect(target.parent(of: added) == pairs[n / 2].1) }
    }

    /// Value semantics: grafting into one copy of a tree must not write to the storage it
    /// still shares with another copy (another thread may be reading that copy).
    @Test func graftDoesNotTouchTheStorageOfAnotherCopy() {
        let (source, n) = Self.source()
        var tree = ViewTree()
        let host = tree.makeNode(type: Ty.a)
        let snapshot = tree // shares storage with `tree` until `tree` is mutated
        #expect(tree._storage === snapshot._storage)
        let capacities = Self.capacities(snapshot._storage)
        let copy = tree.graft(n["r"]!, of: source, under: host) { _, _ in }
        #expect(tree._storage !== snapshot._storage)
        #expect(Self.capacities(snapshot._storage) == capacities,
                "graft reserved capacity in the storage shared with another value, before making its own copy")
        #expect(snapshot.count == 1)
        #expect(tree.count == 9)
        #expect(tree.parent(of: copy) == host)
    }

    static func capacities(_ s: _TreeStorage) -> [Int] {
        [s.parent.capacity, s.generation.capacity, s.typeID.capacity, s.narrowTag.capacity,
         s.tour.span.capacity, s.tour.token.capacity, s.tour.count.capacity]
    }

    // MARK: smallerTree

    /// Two roots with `m` and `k` nodes (mixed shapes).
    static func twoRoots(_ m: Int, _ k: Int) -> (ViewTree, NodeID, NodeID) {
        var t = ViewTree()
        func grow(_ size: Int, chain: Bool) -> NodeID {
            let root = t.makeNode(type: Ty.a)
            var last = root
            for _ in 1 ..< size {
                let node = t.appendChild(type: Ty.b, to: chain ? last : root)
                last = node
            }
            return root
        }
        let a = grow(m, chain: true)
        let b = grow(k, chain: false)
        return (t, a, b)
    }

    @Test func smallerTreePicksTheSmallerRootAndAOnATie() {
        for m in [1, 2, 3, 10] {
            for k in [1, 2, 3, 10] {
                let (tree, a, b) = Self.twoRoots(m, k)
                let expectedAB = m <= k ? a : b
                let expectedBA = k <= m ? b : a
                #expect(tree.smallerTree(a, b) == expectedAB, "sizes \(m) \(k)")
                #expect(tree.smallerTree(b, a) == expectedBA, "sizes \(k) \(m)")
                #expect(builtCopy(tree).smallerTree(a, b) == expectedAB, "fresh, sizes \(m) \(k)")
            }
        }
        let (tree, a, _) = Self.twoRoots(4, 4)
        #expect(tree.smallerTree(a, a) == a)
    }

    @Test func smallerTreeOnTreesWithBranches() {
        // a: root with 2 children each with 2 children (7); b: a chain of 6.
        var t = ViewTree()
        let a = t.makeNode(type: Ty.a)
        for _ in 0 ..< 2 {
            let c = t.appendChild(type: Ty.a, to: a)
            t.appendChild(type: Ty.a, to: c)
            t.appendChild(type: Ty.a, to: c)
        }
        var x = t.makeNode(type: Ty.b)
        let b = x
        for _ in 0 ..< 5 { x = t.appendChild(type: Ty.b, to: x) }
        #expect(t.subtreeSize(of: a) == 7 && t.subtreeSize(of: b) == 6)
        #expect(t.smallerTree(a, b) == b)
        #expect(t.smallerTree(b, a) == b)
        t.appendChild(type: Ty.b, to: x) // now 7 and 7: a tie
        #expect(t.smallerTree(a, b) == a)
        #expect(t.smallerTree(b, a) == b)
    }
}
