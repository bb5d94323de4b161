import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// A `ViewTree` is `Sendable`: copies shared across tasks answer queries concurrently, and
/// a stale one is indexed by whichever query gets there first, without races.
@Suite struct ConcurrencyTests {
    struct Workload: Sendable {
        let pairs: [(NodeID, NodeID)]
        let starts: [NodeID]
        let tags: [Int]
    }

    struct Answers: Sendable, Equatable {
        var ancestry: [Bool] = []
        var groups: [[Int: [NodeID]]] = []
        var sizes: [Int] = []
    }

    /// A seeded random recursive tree: node i's parent is uniform among nodes 0 ..< i.
    static func randomTree(nodes n: Int, seed: UInt64) -> (ViewTree, [NodeID]) {
        var rng = SplitMix64(seed: seed)
        var tree = ViewTree(minimumCapacity: n)
        var ids = [tree.makeNode(tag: 0, type: Ty.a)]
        ids.reserveCapacity(n)
        for _ in 1 ..< n {
            let parent = ids[Int.random(in: 0 ..< ids.count, using: &rng)]
            ids.append(tree.appendChild(tag: Int.random(in: 0 ..< 16, using: &rng), type: Ty.b, to: parent))
        }
        return (tree, ids)
    }

    static func workload(_ ids: [NodeID], seed: UInt64) -> Workload {
        var rng = SplitMix64(seed: seed)
        let pairs = (0 ..< 4000).map { k -> (NodeID, NodeID) in
            // Half the pairs with a node near the top, so many are true.
            let a = k % 2 == 0 ? ids[Int.random(in: 0 ..< 20, using: &rng)] : ids.randomElement(using: &rng)!
            return (a, ids.randomElement(using: &rng)!)
        }
        let starts = [ids[0], ids[1], ids[2]] + (0 ..< 5).map { _ in ids.randomElement(using: &rng)! }
        return Workload(pairs: pairs, starts: starts, tags: [1, 5, 9])
    }

    static func answer(_ tree: ViewTree, _ w: Workload) -> Answers {
        var result = Answers()
        for (k, start) in w.starts.enumerated() {
            result.groups.append(tree.group(.descendants, of: start, byTags: w.tags))
            result.sizes.append(tree.subtreeSize(of: start))
            // Interleave ancestry questions with the groupings.
            for (a, b) in w.pairs[(k * 500) ..< (k * 500 + 500)] {
                result.ancestry.append(tree.isAncestor(a, of: b))
            }
        }
        return result
    }

    static let tasks = 8

    @Test func aFreshTreeSharedAcrossTasksGivesTheSameAnswers() async {
        let (built, ids) = Self.randomTree(nodes: 100_000, seed: 2024)
        let tree = built
        let w = Self.workload(ids, seed: 7)
        let expected = Self.answer(tree, w)
        #expect(expected.ancestry.contains(true) && expected.ancestry.contains(false))
        #expect(expected.sizes[0] == 100_000)
        // Spot-check the single-threaded answers against the parent walk.
        for (a, b) in w.pairs.prefix(200) {
            #expect(tree.isAncestor(a, of: b) == oracleAncestors(tree, b).contains(a))
        }
        let results = await withTaskGroup(of: Answers.self, returning: [Answers].self) { group in
            for _ in 0 ..< Self.tasks {
                group.addTask { Self.answer(tree, w) }
            }
            var all: [Answers] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == Self.tasks)
        for r in results { #expect(r == expected) }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aMovedTreeSharedAcrossTasksAgrees(seed: UInt64) async {
        let (built, ids) = Self.randomTree(nodes: 100_000, seed: seed)
        let w = Self.workload(ids, seed: seed &+ 1)
        // The expected answers come from an independent, fresh copy.
        let expected = Self.answer(builtCopy(built), w)
        let tree = movedCopy(built)
        // The tasks read an index that mutations laid out (not the builder).
        let results = await withTaskGroup(of: Answers.self, returning: [Answers].self) { group in
            for _ in 0 ..< Self.tasks {
                group.addTask { Self.answer(tree, w) }
            }
            var all: [Answers] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == Self.tasks, "seed \(seed)")
        for r in results { #expect(r == expected, "seed \(seed)") }
        tree._checkInvariants() // the index still matches the links
        #expect(Self.answer(tree, w) == expected, "seed \(seed)")
    }

    /// Mutating a copy in one task while other tasks read the original: the copy must get its
    /// own storage before anything is written. Every mutation is tried, graft included (which
    /// grows the arena first: each graft here asks for more room than the last).
    @Test func mutatingACopyWhileOtherTasksReadTheOriginal() async {
        let (built, ids) = Self.randomTree(nodes: 20_000, seed: 5)
        let tree = built
        let w = Self.workload(ids, seed: 6)
        let expected = Self.answer(tree, w)
        let sources = (1 ... 8).map { Self.randomTree(nodes: 1_000 * $0, seed: UInt64($0)) }
        let results = await withTaskGroup(of: Answers?.self, returning: [Answers].self) { group in
            for _ in 0 ..< 3 {
                group.addTask { Self.answer(tree, w) }
            }
            group.addTask {
                for (source, sourceIDs) in sources {
                    var copy = tree
                    copy.graft(sourceIDs[0], of: source, under: ids[0]) { _, _ in }
                    precondition(copy.count == tree.count + source.count)
                    var other = tree
                    other.appendChild(type: Ty.c, to: ids[1])
                    other.removeSubtree(ids[2])
                    other.setTag(3, of: ids[0])
                }
                return nil
            }
            var all: [Answers] = []
            for await r in group { if let r { all.append(r) } }
            return all
        }
        #expect(results.count == 3)
        for r in results { #expect(r == expected) }
        #expect(tree.count == 20_000)
        tree._checkInvariants()
    }
}
