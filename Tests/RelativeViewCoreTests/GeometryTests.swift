import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// Frames, bounds origins and `convert(_:from:to:)` on the arena (`ViewTree+Geometry.swift`):
/// lazily allocated columns, round trips, a fresh index kept across geometry writes, zeroed
/// free slots, `graft` copying geometry, hand-worked conversions on fresh and stale indexes,
/// a random oracle, the cross-tree trap, and the memory footprint.
@Suite struct GeometryTests {
    static let sizes = [0, 1, 2, 10, 100, 1000]

    /// A random tree of `n` nodes (none for `n == 0`) of the given shape; node `i` is `ids[i]`.
    static func tree(_ n: Int, shape: TreeShape = .random, seed: UInt64) -> (ViewTree, [NodeID]) {
        var tree = ViewTree()
        var ids: [NodeID] = []
        guard n > 0 else { return (tree, ids) }
        TreeSpec(shape: shape, nodes: n, seed: seed).buildCore(into: &tree, ids: &ids, typeIDs: Ty.all + Ty.all + Ty.all)
        return (tree, ids)
    }

    /// A random value on a 1/256 grid (sums of these are exact, so conversions compare exactly).
    static func coordinate(_ rng: inout SplitMix64, _ range: ClosedRange<Int> = -100_000 ... 100_000) -> Double {
        Double(Int.random(in: range, using: &rng)) / 256
    }

    static func point(_ rng: inout SplitMix64) -> SIMD2<Double> {
        SIMD2(coordinate(&rng), coordinate(&rng))
    }

    /// Random geometry for every node; a third of the bounds origins are left at zero.
    static func randomGeometry(_ tree: inout ViewTree, _ ids: [NodeID], _ rng: inout SplitMix64) {
        for id in ids {
            tree.setFrameOrigin(point(&rng), of: id)
            tree.setFrameSize(SIMD2(coordinate(&rng, 0 ... 100_000), coordinate(&rng, 0 ... 100_000)), of: id)
            if Int.random(in: 0 ..< 3, using: &rng) != 0 { tree.setBoundsOrigin(point(&rng), of: id) }
        }
    }

    static func geometry(_ tree: ViewTree, _ id: NodeID) -> [SIMD2<Double>] {
        [tree.frameOrigin(of: id), tree.frameSize(of: id), tree.boundsOrigin(of: id)]
    }

    static let zero: [SIMD2<Double>] = [.zero, .zero, .zero]

    /// The oracle: up to the root by `parent(of:)`, then down to `b` (UIKit's way, no common ancestor).
    static func oracleConvert(_ tree: ViewTree, _ p: SIMD2<Double>, from a: NodeID, to b: NodeID) -> SIMD2<Double> {
        func toRoot(_ node: NodeID) -> (SIMD2<Double>, NodeID) {
            var offset = SIMD2<Double>.zero
            var x = node
            while let parent = tree.parent(of: x) {
                offset += tree.frameOrigin(of: x) - tree.boundsOrigin(of: x)
                x = parent
            }
            return (offset, x)
        }
        let (up, rootA) = toRoot(a)
        let (down, rootB) = toRoot(b)
        precondition(rootA == rootB, "oracle: different trees")
        return p + up - down
    }

    static func close(_ x: SIMD2<Double>, _ y: SIMD2<Double>, _ tolerance: Double = 1e-9) -> Bool {
        abs(x.x - y.x) <= tolerance && abs(x.y - y.y) <= tolerance
    }

    // MARK: Columns

    @Test(arguments: sizes)
    func columnsStartEmptyAndReadZero(n: Int) {
        var (tree, ids) = Self.tree(n, seed: UInt64(n))
        #expect(tree._storage.frameOrigin.isEmpty)
        #expect(tree._storage.frameSize.isEmpty)
        #expect(tree._storage.boundsOrigin.isEmpty)
        for id in ids { #expect(Self.geometry(tree, id) == Self.zero, "node \(id)") }
        // Structural mutations and removals do not allocate them either.
        if let first = ids.first {
            let extra = tree.appendChild(type: Ty.b, to: first)
            tree.removeSubtree(extra)
            let reused = tree.makeNode(type: Ty.c)
            #expect(Self.geometry(tree, reused) == Self.zero)
            tree._checkInvariants()
        }
        #expect(tree._storage.frameOrigin.isEmpty && tree._storage.frameSize.isEmpty && tree._storage.boundsOrigin.isEmpty)
        // A built tree starts without them too.
        var b = ViewTreeBuilder()
        for _ in 0 ..< n { b.open(type: Ty.a) }
        for _ in 0 ..< n { b.close() }
        let built = b.finish()
        #expect(built._storage.frameOrigin.isEmpty)
        for slot in 0 ..< built.slotCount {
            let id = built.node(atSlot: slot)!
            #expect(Self.geometry(built, id) == Self.zero)
        }
    }

    @Test(arguments: sizes.filter { $0 > 0 })
    func theFirstWriteCoversTheWholeArena(n: Int) {
        var (tree, ids) = Self.tree(n, seed: 7 &+ UInt64(n))
        let last = ids[n - 1]
        tree.setBoundsOrigin(SIMD2(1, 2), of: ids[0])
        #expect(tree._storage.frameOrigin.count == tree.slotCount)
        #expect(tree._storage.frameSize.count == tree.slotCount)
        #expect(tree._storage.boundsOrigin.count == tree.slotCount)
        #expect(Self.geometry(tree, ids[0]) == [.zero, .zero, SIMD2(1, 2)])
        if n > 1 { #expect(Self.geometry(tree, last) == Self.zero) }
        // Nodes made after the first write lie past the columns' end: they read zero and can be written.
        let later = (0 ..< 3).map { _ in tree.appendChild(type: Ty.d, to: last) }
        #expect(tree._storage.frameOrigin.count < tree.slotCount)
        for id in later { #expect(Self.geometry(tree, id) == Self.zero) }
        tree.setFrameSize(SIMD2(5, 6), of: later[1])
        #expect(tree._storage.frameOrigin.count == tree.slotCount)
        #expect(Self.geometry(tree, later[1]) == [.zero, SIMD2(5, 6), .zero])
        #expect(Self.geometry(tree, later[0]) == Self.zero)
        #expect(Self.geometry(tree, later[2]) == Self.zero)
        tree._checkInvariants()
    }

    @Test(arguments: sizes.filter { $0 > 0 }, [3, 4] as [UInt64])
    func settersRoundTrip(n: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var (tree, ids) = Self.tree(n, seed: seed)
        var expected: [[SIMD2<Double>]] = Array(repeating: Self.zero, count: n)
        // Random writes to random nodes and components; each leaves the other two alone.
        for step in 0 ..< 4 * n {
            let k = Int.random(in: 0 ..< n, using: &rng)
            let value = SIMD2(Double.random(in: -1e6 ... 1e6, using: &rng), Double.random(in: -1e6 ... 1e6, using: &rng))
            let component = Int.random(in: 0 ..< 3, using: &rng)
            switch component {
            case 0: tree.setFrameOrigin(value, of: ids[k])
            case 1: tree.setFrameSize(value, of: ids[k])
            default: tree.setBoundsOrigin(value, of: ids[k])
            }
            expected[k][component] = value
            #expect(Self.geometry(tree, ids[k]) == expected[k], "seed \(seed), n \(n), step \(step)")
        }
        for (k, id) in ids.enumerated() {
            #expect(Self.geometry(tree, id) == expected[k], "seed \(seed), n \(n), node \(k)")
        }
        // Values that are not ordinary numbers are stored as they are.
        tree.setFrameOrigin(SIMD2(-0.0, .infinity), of: ids[0])
        #expect(tree.frameOrigin(of: ids[0]).x.sign == .minus)
        #expect(tree.frameOrigin(of: ids[0]).y == .infinity)
        tree._checkInvariants()
    }

    @Test func geometryIsCopiedOnWrite() {
        var (tree, ids) = Self.tree(10, seed: 5)
        tree.setFrameOrigin(SIMD2(1, 1), of: ids[3])
        var copy = tree
        copy.setFrameOrigin(SIMD2(2, 2), of: ids[3])
        copy.setBoundsOrigin(SIMD2(3, 3), of: ids[4])
        #expect(tree.frameOrigin(of: ids[3]) == SIMD2(1, 1))
        #expect(tree.boundsOrigin(of: ids[4]) == .zero)
        #expect(copy.frameOrigin(of: ids[3]) == SIMD2(2, 2))
        #expect(copy.boundsOrigin(of: ids[4]) == SIMD2(3, 3))
        #expect(tree._storage !== copy._storage)
        // Both keep the same shape: geometry writes leave the version alone.
        #expect(tree._storage.version == copy._storage.version)
        // A copy of a tree that never laid out gets its own columns on the first write.
        let (plain, plainIDs) = Self.tree(10, seed: 6)
        var laidOut = plain
        laidOut.setFrameSize(SIMD2(9, 9), of: plainIDs[9])
        #expect(plain._storage.frameSize.isEmpty)
        #expect(plain.frameSize(of: plainIDs[9]) == .zero)
        #expect(laidOut.frameSize(of: plainIDs[9]) == SIMD2(9, 9))
    }

    // MARK: Geometry leaves the index alone

    @Test(arguments: sizes.filter { $0 > 0 })
    func geometryWritesKeepTheVersion(n: Int) {
        var rng = SplitMix64(seed: 40 &+ UInt64(n))
        var (tree, ids) = Self.tree(n, seed: 40 &+ UInt64(n))
        let version = tree._storage.version
        for step in 0 ..< 3 * n {
            let id = ids[Int.random(in: 0 ..< n, using: &rng)]
            switch step % 3 {
            case 0: tree.setFrameOrigin(Self.point(&rng), of: id)
            case 1: tree.setFrameSize(Self.point(&rng), of: id)
            default: tree.setBoundsOrigin(Self.point(&rng), of: id)
            }
            // Conversions and queries between writes read the same index.
            let (a, b) = (ids[Int.random(in: 0 ..< n, using: &rng)], ids[Int.random(in: 0 ..< n, using: &rng)])
            _ = tree.convert(.zero, from: a, to: b)
            _ = tree.isAncestor(a, of: b)
        }
        #expect(tree._storage.version == version, "geometry writes do not change the shape's version")
        tree._checkInvariants()  // and the index still matches the links
    }

    // MARK: Freed slots

    @Test(arguments: sizes.filter { $0 > 0 })
    func aFreedSlotsGeometryIsZeroWhenReused(n: Int) {
        var rng = SplitMix64(seed: 50 &+ UInt64(n))
        var (tree, ids) = Self.tree(n, seed: 50 &+ UInt64(n))
        Self.randomGeometry(&tree, ids, &rng)
        for id in ids { tree.setFrameOrigin(SIMD2(1, 1), of: id) }  // non-zero everywhere
        let slots = tree.slotCount
        // Remove the root's whole tree: every slot is freed and zeroed (a large tree's
        // slots by the mutations after the removal; here all of them at once).
        tree.removeSubtree(ids[0])
        #expect(tree.count == 0)
        tree._reclaimPending(tokens: .max)
        for slot in 0 ..< slots {
            #expect(!tree._storage._hasGeometry(at: Int32(slot)), "slot \(slot) keeps geometry after its node was freed")
        }
        // Every new node reuses a freed slot and starts at zero.
        var made: [NodeID] = []
        for _ in 0 ..< n {
            made.append(made.isEmpty ? tree.makeNode(type: Ty.a) : tree.appendChild(type: Ty.b, to: made[0]))
        }
        #expect(tree.slotCount == slots, "the freed slots were reused")
        #expect(Set(made.map(\.index)) == Set(ids.map(\.index)))
        for id in made { #expect(Self.geometry(tree, id) == Self.zero, "n \(n), \(id)") }
        tree._checkInvariants()
    }

    @Test func removingOneSubtreeZeroesOnlyItsSlots() {
        // r [a [a1, a2], b]
        var t = ViewTree()
        let r = t.makeNode(type: Ty.a)
        let a = t.appendChild(type: Ty.a, to: r)
        let a1 = t.appendChild(type: Ty.a, to: a)
        let a2 = t.appendChild(type: Ty.a, to: a)
        let b = t.appendChild(type: Ty.a, to: r)
        for (k, id) in [r, a, a1, a2, b].enumerated() {
            t.setFrameOrigin(SIMD2(Double(k), 1), of: id)
            t.setFrameSize(SIMD2(Double(k), 2), of: id)
            t.setBoundsOrigin(SIMD2(Double(k), 3), of: id)
        }
        t.removeSubtree(a)
        #expect(Self.geometry(t, r) == [SIMD2(0, 1), SIMD2(0, 2), SIMD2(0, 3)])
        #expect(Self.geometry(t, b) == [SIMD2(4, 1), SIMD2(4, 2), SIMD2(4, 3)])
        let reused = [t.makeNode(type: Ty.b), t.appendChild(type: Ty.b, to: r), t.appendChild(type: Ty.b, to: b)]
        #expect(Set(reused.map(\.index)) == Set([a, a1, a2].map(\.index)))
        for id in reused { #expect(Self.geometry(t, id) == Self.zero) }
        // Detaching (not freeing) keeps the geometry.
        t.detach(b)
        #expect(Self.geometry(t, b) == [SIMD2(4, 1), SIMD2(4, 2), SIMD2(4, 3)])
        t._checkInvariants()
    }

    // MARK: graft

    @Test(arguments: sizes.filter { $0 > 0 })
    func graftCopiesGeometry(n: Int) {
        var rng = SplitMix64(seed: 60 &+ UInt64(n))
        var (source, ids) = Self.tree(n, seed: 60 &+ UInt64(n))
        Self.randomGeometry(&source, ids, &rng)
        if n > 1 {
            // Some nodes with no geometry at all.
            for id in ids.dropFirst().filter({ _ in Bool.random(using: &rng) }) {
                source.setFrameOrigin(.zero, of: id)
                source.setFrameSize(.zero, of: id)
                source.setBoundsOrigin(.zero, of: id)
            }
        }
        // Into a tree that never laid out, as a new root.
        var target = ViewTree()
        let other = target.makeNode(type: Ty.a)
        var pairs: [(NodeID, NodeID)] = []
        target.graft(ids[0], of: source) { pairs.append(($0, $1)) }
        #expect(pairs.count == n)
        for (old, new) in pairs {
            #expect(Self.geometry(target, new) == Self.geometry(source, old), "n \(n), \(old) -> \(new)")
        }
        #expect(Self.geometry(target, other) == Self.zero)
        // Into a tree with geometry and freed (zeroed) slots, under a parent.
        var laidOut = ViewTree()
        let host = laidOut.makeNode(type: Ty.a)
        laidOut.setFrameOrigin(SIMD2(7, 7), of: host)
        let doomed = (0 ..< n).map { _ in laidOut.appendChild(type: Ty.b, to: host) }
        for id in doomed { laidOut.setFrameSize(SIMD2(8, 8), of: id) }
        for id in doomed { laidOut.removeSubtree(id) }
        pairs = []
        let copy = laidOut.graft(ids[0], of: source, under: host) { pairs.append(($0, $1)) }
        #expect(laidOut.parent(of: copy) == host)
        for (old, new) in pairs {
            #expect(Self.geometry(laidOut, new) == Self.geometry(source, old), "n \(n), \(old) -> \(new)")
        }
        #expect(Self.geometry(laidOut, host) == [SIMD2(7, 7), .zero, .zero])
        // Conversions inside the copy agree with the source.
        for _ in 0 ..< min(n, 50) {
            let (i, j) = (Int.random(in: 0 ..< n, using: &rng), Int.random(in: 0 ..< n, using: &rng))
            let p = Self.point(&rng)
            #expect(laidOut.convert(p, from: pairs[i].1, to: pairs[j].1) == source.convert(p, from: pairs[i].0, to: pairs[j].0))
        }
        laidOut._checkInvariants()
        target._checkInvariants()
    }

    @Test func graftOfATreeWithoutGeometryLeavesTheColumnsEmpty() {
        let (source, ids) = Self.tree(20, seed: 61)
        var target = ViewTree()
        target.graft(ids[0], of: source)
        #expect(target._storage.frameOrigin.isEmpty)
        #expect(target.count == 20)
    }

    // MARK: convert, by hand

    /// ```
    /// r   frame origin (1000, 1000), bounds origin (5, 5)   (above every LCA below: never used)
    /// ├── a    frame origin (10, 20)
    /// │   └── a1   frame origin (5, 5), bounds origin (2, 3)
    /// │       └── a11  frame origin (1, 1)
    /// └── b    frame origin (100, 0), bounds origin (0, 50)   (scrolled down by 50)
    ///     └── b1   frame origin (7, 60), bounds origin (-3, 4)
    /// ```
    /// Offsets to the parent's space (frame origin - bounds origin): a (10, 20), a1 (3, 2),
    /// a11 (1, 1), b (100, -50), b1 (10, 56); so to r's space: a (10, 20), a1 (13, 22),
    /// a11 (14, 23), b (100, -50), b1 (110, 6).
    static func handWorked() -> (ViewTree, [String: NodeID]) {
        var t = ViewTree()
        var n: [String: NodeID] = [:]
        n["r"] = t.makeNode(type: Ty.a)
        n["a"] = t.appendChild(type: Ty.a, to: n["r"]!)
        n["a1"] = t.appendChild(type: Ty.b, to: n["a"]!)
        n["a11"] = t.appendChild(type: Ty.c, to: n["a1"]!)
        n["b"] = t.appendChild(type: Ty.b, to: n["r"]!)
        n["b1"] = t.appendChild(type: Ty.c, to: n["b"]!)
        t.setFrameOrigin(SIMD2(1000, 1000), of: n["r"]!)
        t.setBoundsOrigin(SIMD2(5, 5), of: n["r"]!)
        t.setFrameSize(SIMD2(320, 480), of: n["r"]!)
        t.setFrameOrigin(SIMD2(10, 20), of: n["a"]!)
        t.setFrameOrigin(SIMD2(5, 5), of: n["a1"]!)
        t.setBoundsOrigin(SIMD2(2, 3), of: n["a1"]!)
        t.setFrameSize(SIMD2(50, 50), of: n["a1"]!)  // sizes play no part in conversions
        t.setFrameOrigin(SIMD2(1, 1), of: n["a11"]!)
        t.setFrameOrigin(SIMD2(100, 0), of: n["b"]!)
        t.setBoundsOrigin(SIMD2(0, 50), of: n["b"]!)
        t.setFrameOrigin(SIMD2(7, 60), of: n["b1"]!)
        t.setBoundsOrigin(SIMD2(-3, 4), of: n["b1"]!)
        return (t, n)
    }

    static let p = SIMD2<Double>(1.5, -2.25)

    /// (from, to, the expected image of `p`), worked out by hand from the offsets above.
    static let handWorkedCases: [(String, String, SIMD2<Double>)] = [
        // Identity.
        ("r", "r", p), ("a1", "a1", p), ("b1", "b1", p),
        // Siblings: a -> b is +(10, 20) - (100, -50).
        ("a", "b", p + SIMD2(-90, 70)), ("b", "a", p + SIMD2(90, -70)),
        // Cousins with frame and bounds origins on both sides: +(13, 22) - (110, 6).
        ("a1", "b1", p + SIMD2(-97, 16)), ("b1", "a1", p + SIMD2(97, -16)),
        // Deeper on one side: a11 -> b1 is +(14, 23) - (110, 6).
        ("a11", "b1", p + SIMD2(-96, 17)), ("b1", "a11", p + SIMD2(96, -17)),
        // Descendant to ancestor, and back.
        ("a11", "a1", p + SIMD2(1, 1)), ("a1", "a11", p - SIMD2(1, 1)),
        ("a11", "a", p + SIMD2(4, 3)), ("a", "a11", p - SIMD2(4, 3)),
        ("a11", "r", p + SIMD2(14, 23)), ("r", "a11", p - SIMD2(14, 23)),
        ("b1", "r", p + SIMD2(110, 6)), ("r", "b1", p - SIMD2(110, 6)),
        ("b1", "b", p + SIMD2(10, 56)), ("b", "b1", p - SIMD2(10, 56)),
        ("b", "r", p + SIMD2(100, -50)), ("r", "b", p - SIMD2(100, -50)),
        // An uncle: a11 -> b is +(14, 23) - (100, -50).
        ("a11", "b", p + SIMD2(-86, 73)), ("b", "a11", p + SIMD2(86, -73)),
    ]

    @Test(arguments: 0 ..< handWorkedCases.count)
    func convertByHand(k: Int) {
        let (tree, n) = Self.handWorked()
        let (from, to, expected) = Self.handWorkedCases[k]
        let (a, b) = (n[from]!, n[to]!)
        #expect(tree.convert(Self.p, from: a, to: b) == expected, "\(from) -> \(to)")
        expectBoth(tree, expected, "\(from) -> \(to)") { $0.convert(Self.p, from: a, to: b) }
        // And the oracle agrees.
        #expect(Self.oracleConvert(tree, Self.p, from: a, to: b) == expected, "\(from) -> \(to)")
    }

    @Test func convertIsLinearAndInvertibleByHand() {
        let (tree, n) = Self.handWorked()
        for (a, b) in [("a1", "b1"), ("a11", "r"), ("b", "a")] {
            let (x, y) = (n[a]!, n[b]!)
            let offset = tree.convert(.zero, from: x, to: y)
            for q in [SIMD2<Double>(0, 0), SIMD2(-7, 3), SIMD2(1e6, -1e6)] {
                #expect(tree.convert(q, from: x, to: y) == q + offset, "\(a) -> \(b)")
                #expect(tree.convert(tree.convert(q, from: x, to: y), from: y, to: x) == q, "\(a) -> \(b) -> \(a)")
            }
        }
    }

    @Test func theRootsOwnGeometryNeverMatters() {
        var (tree, n) = Self.handWorked()
        let before = Self.handWorkedCases.map { tree.convert(Self.p, from: n[$0.0]!, to: n[$0.1]!) }
        tree.setFrameOrigin(SIMD2(-12345, 678), of: n["r"]!)
        tree.setBoundsOrigin(SIMD2(99, -99), of: n["r"]!)
        let after = Self.handWorkedCases.map { tree.convert(Self.p, from: n[$0.0]!, to: n[$0.1]!) }
        #expect(before == after)
        // Changing a node on the path does change the answer, on both indexes.
        tree.setBoundsOrigin(SIMD2(0, 0), of: n["b"]!)
        expectBoth(tree, Self.p + SIMD2(-97, -34), "a1 -> b1 after b scrolls back") {
            $0.convert(Self.p, from: n["a1"]!, to: n["b1"]!)
        }
    }

    @Test func convertOnATreeWithoutGeometryIsTheIdentity() {
        let (tree, ids) = Self.tree(100, seed: 70)
        var rng = SplitMix64(seed: 70)
        for _ in 0 ..< 100 {
            let (a, b) = (ids[Int.random(in: 0 ..< 100, using: &rng)], ids[Int.random(in: 0 ..< 100, using: &rng)])
            let q = Self.point(&rng)
            expectBoth(tree, q) { $0.convert(q, from: a, to: b) }
        }
    }

    /// A node made after the columns were allocated (past their end) takes part with zero geometry.
    @Test func convertThroughANodePastTheColumnsEnd() {
        var (tree, n) = Self.handWorked()
        let c = tree.appendChild(type: Ty.d, to: n["b1"]!)
        let c1 = tree.appendChild(type: Ty.d, to: c)
        #expect(tree._storage.frameOrigin.count < tree.slotCount)
        tree.setFrameOrigin(SIMD2(2, 2), of: c1)  // grows the columns; c stays zero
        expectBoth(tree, Self.p + SIMD2(2, 2) + SIMD2(110, 6) - SIMD2(13, 22)) {
            $0.convert(Self.p, from: c1, to: n["a1"]!)
        }
        let c2 = tree.appendChild(type: Ty.d, to: c1)  // past the end again
        expectBoth(tree, Self.p - SIMD2(2, 2)) { $0.convert(Self.p, from: c, to: c2) }
    }

    // MARK: convert, against the oracle

    @Test(arguments: TreeShape.allCases, [1, 2, 10, 100, 1000])
    func convertAgreesWithTheOracle(shape: TreeShape, n: Int) {
        let seed = 80 &+ UInt64(n) &* 31 &+ UInt64(TreeShape.allCases.firstIndex(of: shape)!)
        var rng = SplitMix64(seed: seed)
        var (tree, ids) = Self.tree(n, shape: shape, seed: seed)
        Self.randomGeometry(&tree, ids, &rng)
        let fresh = builtCopy(tree)
        let stale = movedCopy(tree)
        var staleQueries = 0
        for q in 0 ..< 200 {
            let a = ids[Int.random(in: 0 ..< n, using: &rng)]
            let b = Int.random(in: 0 ..< 8, using: &rng) == 0 ? a : ids[Int.random(in: 0 ..< n, using: &rng)]
            let p = Self.point(&rng)
            let expected = Self.oracleConvert(tree, p, from: a, to: b)
            let note = Comment(rawValue: "seed \(seed), \(shape) n \(n), query \(q): \(a) -> \(b)")
            // On the 1/256 grid every sum is exact: the answers are equal, not just close.
            #expect(fresh.convert(p, from: a, to: b) == expected, note)
            #expect(stale.convert(p, from: a, to: b) == expected, note)
            staleQueries += 1
            // The way back.
            #expect(fresh.convert(expected, from: b, to: a) == p, note)
        }
        #expect(staleQueries == 200)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func convertWithUnroundedCoordinatesIsClose(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var (tree, ids) = Self.tree(300, seed: seed)
        for id in ids {
            tree.setFrameOrigin(SIMD2(Double.random(in: -500 ..< 500, using: &rng), Double.random(in: -500 ..< 500, using: &rng)), of: id)
            tree.setBoundsOrigin(SIMD2(Double.random(in: -50 ..< 50, using: &rng), Double.random(in: -50 ..< 50, using: &rng)), of: id)
        }
        let fresh = builtCopy(tree)
        for q in 0 ..< 300 {
            let (a, b) = (ids[Int.random(in: 0 ..< 300, using: &rng)], ids[Int.random(in: 0 ..< 300, using: &rng)])
            let p = SIMD2(Double.random(in: -100 ..< 100, using: &rng), Double.random(in: -100 ..< 100, using: &rng))
            let expected = Self.oracleConvert(tree, p, from: a, to: b)
            let got = fresh.convert(p, from: a, to: b)
            #expect(Self.close(got, expected), "seed \(seed), query \(q): \(a) -> \(b): \(got) vs \(expected)")
        }
    }

    /// Conversions stay right as the tree is re-shaped between them (mutations drop the
    /// index; geometry writes do not).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func convertAcrossMutations(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var (tree, ids) = Self.tree(200, seed: seed)
        Self.randomGeometry(&tree, ids, &rng)
        for step in 0 ..< 2000 {
            let note = Comment(rawValue: "seed \(seed), step \(step)")
            let a = ids[Int.random(in: 0 ..< ids.count, using: &rng)]
            let b = ids[Int.random(in: 0 ..< ids.count, using: &rng)]
            switch Int.random(in: 0 ..< 10, using: &rng) {
            case 0 ..< 3:
                // Re-parent a under b unless that would make a cycle.
                if a != b && !tree.isAncestor(a, of: b) { tree.append(a, to: b) }
            case 3:
                tree.setFrameOrigin(Self.point(&rng), of: a)
            case 4:
                tree.setBoundsOrigin(Self.point(&rng), of: a)
            default:
                guard tree.root(of: a) == tree.root(of: b) else { continue }
                let p = Self.point(&rng)
                #expect(tree.convert(p, from: a, to: b) == Self.oracleConvert(tree, p, from: a, to: b), note)
            }
        }
        tree._checkInvariants()
    }

    // MARK: Misuse

    /// The same conversions within one tree do not trap: the traps below are about the trees.
    @Test func theControlCasesDoNotTrap() {
        var t = ViewTree()
        let r1 = t.makeNode(type: Ty.a)
        let c1 = t.appendChild(type: Ty.a, to: r1)
        let r2 = t.makeNode(type: Ty.a)
        t.setFrameOrigin(SIMD2(1, 1), of: c1)
        #expect(t.convert(.zero, from: c1, to: r1) == SIMD2(1, 1))
        #expect(t.convert(SIMD2(3, 4), from: r2, to: r2) == SIMD2(3, 4))
        #expect(t.convert(.zero, from: r1, to: c1) == SIMD2(-1, -1))
    }

    @Test func convertingBetweenTwoRootsTrapsOnAFreshIndex() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var t = ViewTree()
            let r1 = t.makeNode(type: Ty.a)
            let r2 = t.makeNode(type: Ty.a)
            t.setFrameOrigin(SIMD2(1, 1), of: r1)
            _ = t.convert(.zero, from: r1, to: r2)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("different trees"), "\(message)")
    }

    @Test func convertingBetweenTwoRootsTrapsOnAStaleIndex() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var t = ViewTree()
            let r1 = t.makeNode(type: Ty.a)
            let r2 = t.makeNode(type: Ty.a)
            t.setFrameOrigin(SIMD2(1, 1), of: r2)
            _ = t.convert(.zero, from: r1, to: r2)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("different trees"), "\(message)")
    }

    @Test func convertingBetweenDescendantsOfTwoRootsTraps() async {
        await #expect(processExitsWith: .failure) {
            var t = ViewTree()
            let r1 = t.makeNode(type: Ty.a)
            let a = t.appendChild(type: Ty.a, to: t.appendChild(type: Ty.a, to: r1))
            let r2 = t.makeNode(type: Ty.a)
            let b = t.appendChild(type: Ty.a, to: r2)
            _ = t.convert(.zero, from: a, to: b)
        }
        await #expect(processExitsWith: .failure) {
            var t = ViewTree()
            let r1 = t.makeNode(type: Ty.a)
            let a = t.appendChild(type: Ty.a, to: t.appendChild(type: Ty.a, to: r1))
            let r2 = t.makeNode(type: Ty.a)
            let b = t.appendChild(type: Ty.a, to: r2)
            _ = t.convert(.zero, from: b, to: a)
        }
    }

    @Test func geometryOfARemovedNodeTraps() async {
        await #expect(processExitsWith: .failure) {
            var t = ViewTree()
            let r = t.makeNode(type: Ty.a)
            let a = t.appendChild(type: Ty.a, to: r)
            t.removeSubtree(a)
            t.setFrameOrigin(SIMD2(1, 1), of: a)
        }
        await #expect(processExitsWith: .failure) {
            var t = ViewTree()
            let r = t.makeNode(type: Ty.a)
            let a = t.appendChild(type: Ty.a, to: r)
            t.setFrameOrigin(SIMD2(1, 1), of: a)
            t.removeSubtree(a)
            _ = t.frameOrigin(of: a)
        }
        await #expect(processExitsWith: .failure) {
            var t = ViewTree()
            let r = t.makeNode(type: Ty.a)
            let a = t.appendChild(type: Ty.a, to: r)
            t.removeSubtree(a)
            _ = t.convert(.zero, from: r, to: a)
        }
    }

    // MARK: Memory

    @Test(arguments: sizes.filter { $0 > 0 })
    func memoryFootprintGrowsOnceGeometryIsWritten(n: Int) {
        var (tree, ids) = Self.tree(n, seed: 90 &+ UInt64(n))
        let before = tree.memoryFootprint
        _ = tree.frameOrigin(of: ids[0])
        _ = tree.convert(.zero, from: ids[0], to: ids[n - 1])
        #expect(tree.memoryFootprint == before, "reads allocate no geometry")
        #expect(tree._storage.frameOrigin.isEmpty)
        let withoutGeometry = tree.memoryFootprint
        tree.setFrameOrigin(SIMD2(1, 1), of: ids[n - 1])
        let after = tree.memoryFootprint
        let columns = 3 * tree.slotCount * MemoryLayout<SIMD2<Double>>.stride
        #expect(after >= withoutGeometry + columns, "n \(n): \(withoutGeometry) -> \(after), columns \(columns)")
        // Further writes within the arena allocate nothing more.
        for id in ids { tree.setBoundsOrigin(SIMD2(2, 2), of: id) }
        #expect(tree.memoryFootprint == after)
    }
}
