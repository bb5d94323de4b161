import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// Tags are `Int`: those that do not fit the narrow `Int32` column (and `Int32.min`, the
/// sentinel) live in a side table. Grouping by tags has three scan paths (1–4 narrow tags:
/// one pass per tag; 5–8: a linear lookup; more than 8: a hash map), all checked against a
/// brute-force oracle.
@Suite struct TagTests {
    static let wide = [Int.max, Int.min, Int(Int32.min), Int(Int32.max) + 1, Int(Int32.min) - 1, 1 << 40, -(1 << 40)]
    static let edges = wide + [Int(Int32.max), Int(Int32.min) + 1, 0, -1, 1]

    @Test func wideTagsAreStoredAndReadBack() {
        var tree = ViewTree()
        let root = tree.makeNode(tag: Int.max, type: Ty.a)
        var nodes = [root]
        for tag in Self.edges { nodes.append(tree.appendChild(tag: tag, type: Ty.b, to: root)) }
        tree._checkInvariants()
        #expect(tree.tag(of: root) == Int.max)
        #expect(nodes.dropFirst().map { tree.tag(of: $0) } == Self.edges)
        #expect(tree._storage.wideTags.count == Self.wide.count + 1)
        // setTag from narrow to wide and between wide values.
        let leaf = tree.appendChild(tag: 3, type: Ty.c, to: root)
        tree.setTag(Int.min, of: leaf)
        tree._checkInvariants()
        #expect(tree.tag(of: leaf) == Int.min)
        tree.setTag(Int(Int32.min), of: leaf)
        tree._checkInvariants()
        #expect(tree.tag(of: leaf) == Int(Int32.min))
        tree.setTag(Int.max - 1, of: leaf)
        tree._checkInvariants()
        #expect(tree.tag(of: leaf) == Int.max - 1)
        // Survives an index build and a copy.
        let copy = tree
        #expect(copy.tag(of: leaf) == Int.max - 1)
        #expect(copy.tag(of: root) == Int.max)
    }

    @Test func wideTagsAreGroupedOnFreshAndStaleIndexes() throws {
        var tree = ViewTree()
        let root = tree.makeNode(tag: Int.min, type: Ty.a)
        let x = tree.appendChild(tag: Int.max, type: Ty.a, to: root)
        let y = tree.appendChild(tag: Int(Int32.min), type: Ty.a, to: x)
        let z = tree.appendChild(tag: Int(Int32.max), type: Ty.a, to: root)
        let w = tree.appendChild(tag: Int.max, type: Ty.a, to: root)
        let v = tree.appendChild(tag: 5, type: Ty.a, to: w)
        let u = tree.appendChild(tag: Int(Int32.min), type: Ty.a, to: v)
        tree._checkInvariants()
        // Pre-order of root's descendants: x, y, z, w, v, u.
        expectBoth(tree, [Int.max: [x, w]]) { $0.group(.descendants, of: root, byTags: [Int.max]) }
        expectBoth(tree, [Int(Int32.min): [y, u]]) { $0.group(.descendants, of: root, byTags: [Int(Int32.min)]) }
        expectBoth(tree, [Int(Int32.max): [z]]) { $0.group(.descendants, of: root, byTags: [Int(Int32.max)]) }
        expectBoth(tree, [:]) { $0.group(.descendants, of: root, byTags: [Int.min]) } // only root has it
        expectBoth(tree, [Int.max: [x, w], Int(Int32.min): [y, u], Int(Int32.max): [z], 5: [v]]) {
            $0.group(.descendants, of: root, byTags: [Int.max, Int(Int32.min), Int(Int32.max), 5, Int.min, 0])
        }
        // Many narrow tags (the hash path) together with wide ones.
        expectBoth(tree, [Int.max: [x, w], 5: [v]]) {
            $0.group(.descendants, of: root, byTags: Array(0 ..< 20) + [Int.max])
        }
        expectBoth(tree, [Int.min: [root], Int.max: [x]]) { $0.group(.ancestors, of: y, byTags: [Int.min, Int.max, Int(Int32.min)]) }
        expectBoth(tree, [Int.max: [w], Int.min: [root]]) { $0.group(.ancestors, of: u, byTags: [Int.max, Int.min]) }
        expectBoth(tree, [Int.max: [x, w]]) { $0.group(.siblings, of: z, byTags: [Int.max, Int(Int32.min)]) }
        expectBoth(tree, [Int(Int32.max): [z]]) { $0.group(.siblings, of: x, byTags: [Int(Int32.max), Int(Int32.min)]) }
        expectBoth(tree, w) { $0.first(.ancestors, of: u, withTags: [Int.max]) }
        expectBoth(tree, root) { $0.first(.ancestors, of: u, withTags: [Int.min]) }
        expectBoth(tree, nil) { $0.first(.ancestors, of: u, withTags: [Int(Int32.min)]) }
        expectBoth(tree, [Int.max: [x, w]]) { tree in tree.group(.descendants, of: root) { tree.tag(of: $0) == Int.max ? Int.max : nil } }
    }

    @Test func wideTagsInABuiltTree() {
        var builder = ViewTreeBuilder()
        let root = builder.open(tag: Int.max, type: Ty.a)
        let x = builder.open(tag: Int.min, type: Ty.b)
        builder.close()
        let y = builder.open(tag: Int(Int32.min), type: Ty.b)
        builder.close()
        builder.close()
        let tree = builder.finish()
        tree._checkInvariants()
        #expect([root, x, y].map { tree.tag(of: $0) } == [Int.max, Int.min, Int(Int32.min)])
        #expect(tree.group(.descendants, of: root, byTags: [Int.min, Int(Int32.min), Int.max]) == [Int.min: [x], Int(Int32.min): [y]])
    }

    @Test func wideTagsChangedBackToNarrowClearTheTable() {
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        var nodes: [NodeID] = []
        for tag in Self.wide { nodes.append(tree.appendChild(tag: tag, type: Ty.b, to: root)) }
        #expect(tree._storage.wideTags.count == Self.wide.count)
        for (k, node) in nodes.enumerated() {
            tree.setTag(k, of: node)
            tree._checkInvariants()
            #expect(tree.tag(of: node) == k)
            #expect(tree._storage.wideTags.count == Self.wide.count - k - 1)
        }
        expectBoth(tree, [:]) { $0.group(.descendants, of: root, byTags: Self.wide) }
        expectBoth(tree, [0: [nodes[0]], 3: [nodes[3]]]) { $0.group(.descendants, of: root, byTags: [0, 3] + Self.wide) }
        // And Int32.max is narrow: no table entry.
        tree.setTag(Int(Int32.max), of: nodes[0])
        tree._checkInvariants()
        #expect(tree._storage.wideTags.isEmpty)
        #expect(tree.tag(of: nodes[0]) == Int(Int32.max))
    }

    @Test func slotReuseAfterRemovingANodeWithAWideTag() {
        var tree = ViewTree()
        let root = tree.makeNode(type: Ty.a)
        let doomed = tree.appendChild(tag: Int.max, type: Ty.b, to: root)
        let doomedChild = tree.appendChild(tag: Int(Int32.min), type: Ty.b, to: doomed)
        let keep = tree.appendChild(tag: Int.min, type: Ty.b, to: root)
        tree.removeSubtree(doomed)
        tree._checkInvariants()
        #expect(tree._storage.wideTags.count == 1)
        #expect(tree.tag(of: keep) == Int.min)
        // A narrow node in the slot of a wide one.
        let narrow = tree.appendChild(tag: 7, type: Ty.c, to: root)
        #expect(narrow.index == doomed.index || narrow.index == doomedChild.index)
        tree._checkInvariants()
        #expect(tree.tag(of: narrow) == 7)
        // A wide node in the other freed slot.
        let wideAgain = tree.appendChild(tag: Int.min + 1, type: Ty.c, to: root)
        #expect(Set([narrow.index, wideAgain.index]) == Set([doomed.index, doomedChild.index]))
        tree._checkInvariants()
        #expect(tree.tag(of: wideAgain) == Int.min + 1)
        expectBoth(tree, [:]) { $0.group(.descendants, of: root, byTags: [Int.max, Int(Int32.min)]) }
        expectBoth(tree, [7: [narrow], Int.min: [keep], Int.min + 1: [wideAgain]]) {
            $0.group(.descendants, of: root, byTags: [7, Int.min, Int.min + 1])
        }
    }

    @Test func copiesKeepTheirOwnWideTags() {
        var tree = ViewTree()
        let root = tree.makeNode(tag: Int.max, type: Ty.a)
        var copy = tree
        copy.setTag(Int.min, of: root)
        copy._checkInvariants()
        tree._checkInvariants()
        #expect(tree.tag(of: root) == Int.max)
        #expect(copy.tag(of: root) == Int.min)
        copy.setTag(1, of: root)
        #expect(tree.tag(of: root) == Int.max)
        #expect(copy.tag(of: root) == 1)
    }

    // MARK: Scan paths against an oracle

    /// A seeded random recursive tree whose tags come from `pool`.
    static func randomTree(nodes n: Int, pool: [Int], seed: UInt64) -> (ViewTree, [NodeID]) {
        var rng = SplitMix64(seed: seed)
        var tree = ViewTree()
        var ids = [tree.makeNode(tag: pool.randomElement(using: &rng)!, type: Ty.a)]
        for _ in 1 ..< n {
            let parent = ids.randomElement(using: &rng)!
            ids.append(tree.appendChild(tag: pool.randomElement(using: &rng)!, type: Ty.all.randomElement(using: &rng)!, to: parent))
        }
        return (tree, ids)
    }

    static let pool = Array(-3 ..< 17) + [Int.max, Int.min, Int(Int32.min), Int(Int32.max), 1 << 33]

    /// Asked tag lists: 1–4 narrow (per-tag scan), 5–8 (linear lookup), more than 8 (hash map),
    /// with and without wide tags, with duplicates and tags no node has.
    static let askedLists: [[Int]] = [
        [0], [3, 1], [16, 2, 2, -3], [5, 6, 7, 8],
        [0, 1, 2, 3, 4], [0, 2, 4, 6, 8, 10, 12, 14], [1, 99, 3, 98, 5, 97, 7, 96],
        Array(0 ..< 9), Array(-3 ..< 17), Array((-3 ..< 17).reversed()) + [1000, 1001], Array(0 ..< 12) + Array(0 ..< 12),
        [Int.max], [Int.max, Int(Int32.min)], [1, Int.min, 2], [0, 1, 2, 3, 4, 5, 6, Int(Int32.max), Int.max, 1 << 33],
        [Int(Int32.min), 1 << 33, 1 << 34], Array(-3 ..< 17) + [Int.max, Int.min, Int(Int32.min), Int(Int32.max), 1 << 33],
    ]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func groupingByTagsAgreesWithABruteForceOracle(seed: UInt64) {
        let (tree, ids) = Self.randomTree(nodes: 400, pool: Self.pool, seed: seed)
        tree._checkInvariants()
        var rng = SplitMix64(seed: seed &+ 100)
        let starts = [ids[0]] + (0 ..< 6).map { _ in ids.randomElement(using: &rng)! }
        for start in starts {
            let walked = oracleDescendants(tree, start)
            #expect(Array(tree.descendants(of: start)) == walked, "seed \(seed)")
            for asked in Self.askedLists {
                let set = Set(asked)
                let expected = oracleGroup(walked) { set.contains(tree.tag(of: $0)) ? tree.tag(of: $0) : nil }
                expectBoth(tree, expected, "seed \(seed) start \(start) asked \(asked)") {
                    $0.group(.descendants, of: start, byTags: asked)
                }
                let anc = oracleGroup(oracleAncestors(tree, start)) { set.contains(tree.tag(of: $0)) ? tree.tag(of: $0) : nil }
                expectBoth(tree, anc, "seed \(seed) ancestors \(start) \(asked)") { $0.group(.ancestors, of: start, byTags: asked) }
                // Short lists (8 or fewer) are searched as they are, longer ones through a table.
                let nearest = oracleAncestors(tree, start).first { set.contains(tree.tag(of: $0)) }
                expectBoth(tree, nearest, "seed \(seed) first ancestor \(start) \(asked)") { $0.first(.ancestors, of: start, withTags: asked) }
                let sibs = Array(tree.siblings(of: start))
                let sib = oracleGroup(sibs) { set.contains(tree.tag(of: $0)) ? tree.tag(of: $0) : nil }
                expectBoth(tree, sib, "seed \(seed) siblings \(start) \(asked)") { $0.group(.siblings, of: start, byTags: asked) }
            }
        }
    }

    @Test func hashPathAndScanPathAgreeOnTheSameTree() {
        let (tree, ids) = Self.randomTree(nodes: 300, pool: Self.pool, seed: 77)
        let root = ids[0]
        // Asking for 12 tags at once equals the union of asking them four at a time.
        let many = Array(0 ..< 12)
        for t in [builtCopy(tree), movedCopy(tree)] {
            let all = t.group(.descendants, of: root, byTags: many)
            var union: [Int: [NodeID]] = [:]
            for chunk in stride(from: 0, to: 12, by: 4) {
                let part = builtCopy(tree).group(.descendants, of: root, byTags: Array(many[chunk ..< chunk + 4]))
                union.merge(part) { a, _ in a }
            }
            #expect(all == union)
            #expect(!all.isEmpty)
        }
    }
}
