import RelativeViewEngine
import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// `_TourBlocks` against a plain model of the forest: after every operation, the tour read
/// block by block equals the model's Euler tour, every span points back at its token, and
/// ancestor tests agree with the model.
@Suite struct TourBlocksTests {
    /// A forest as parents and ordered children, with roots in tour order.
    struct Model {
        var parent: [Int32] = []
        var children: [[Int32]] = []
        var roots: [Int32] = []
        var tag: [Int32] = []
        var live: [Int32] = []

        func tour() -> [Int32] {
            var out: [Int32] = []
            // Iterative: (node, entered) pairs.
            var stack: [(Int32, Bool)] = roots.reversed().map { ($0, false) }
            while let (x, entered) = stack.popLast() {
                if entered {
                    out.append(~x)
                    continue
                }
                out.append(x)
                stack.append((x, true))
                for c in children[Int(x)].reversed() { stack.append((c, false)) }
            }
            return out
        }

        func isProperAncestor(_ a: Int32, _ b: Int32) -> Bool {
            var x = parent[Int(b)]
            while x >= 0 {
                if x == a { return true }
                x = parent[Int(x)]
            }
            return false
        }

        func inSubtree(_ x: Int32, of a: Int32) -> Bool { x == a || isProperAncestor(a, x) }

        mutating func detach(_ x: Int32) {
            let p = parent[Int(x)]
            if p >= 0 {
                children[Int(p)].removeAll { $0 == x }
            } else {
                roots.removeAll { $0 == x }
            }
        }

        mutating func removeSubtree(_ x: Int32) {
            detach(x)
            var stack = [x]
            while let y = stack.popLast() {
                stack.append(contentsOf: children[Int(y)])
                children[Int(y)] = []
                parent[Int(y)] = -2
                live.removeAll { $0 == y }
            }
        }
    }

    /// The token before which a node goes as child `index` of `p` (after any detach).
    static func anchor(_ model: Model, _ p: Int32, _ index: Int) -> Int32 {
        index < model.children[Int(p)].count ? model.children[Int(p)][index] : ~p
    }

    static func check(_ tour: _TourBlocks, _ model: Model, _ rng: inout SplitMix64, seed: UInt64, step: Int) {
        let tokens = tour.checkedTokens()
        #expect(tokens == model.tour(), "seed \(seed), step \(step)")
        for x in model.live {
            #expect(tour.tag[_TourBlocks.slot(tour.span[Int(x)].enter)] == model.tag[Int(x)], "tag of \(x), seed \(seed), step \(step)")
        }
        guard !model.live.isEmpty else { return }
        for _ in 0 ..< 20 {
            let a = model.live.randomElement(using: &rng) ?? 0
            let b = model.live.randomElement(using: &rng) ?? 0
            #expect(tour.isProperAncestor(a, b) == model.isProperAncestor(a, b), "ancestor(\(a), \(b)), seed \(seed), step \(step)")
        }
    }

    /// Seeds, and label bits: 62 as in trees, 12 to relabel often (whole lists included).
    @Test(arguments: [(1, 62), (2, 62), (3, 62), (4, 62), (5, 12), (6, 12)] as [(UInt64, Int)])
    func randomOperationsKeepTheTourInStepWithTheModel(seed: UInt64, labelBits: Int) {
        var rng = SplitMix64(seed: seed)
        var tour = _TourBlocks(labelBits: labelBits)
        var model = Model()
        // Nodes of cut runs whose blocks wait to be reclaimed, and those reclaimed so far.
        var waiting: Set<Int32> = []
        for step in 0 ..< 3_000 {
            // Reclaim a little, as mutations do: only waiting nodes come back, each once.
            tour.reclaim(tokens: 64) { x in
                #expect(waiting.remove(x) != nil, "reclaimed \(x), which was not waiting, seed \(seed), step \(step)")
            }
            // The upkeep (sweep, packing, the last block into a free one, trimming), and
            // now and then an exchange of any two blocks (listed, free or pending): memory
            // moves, the tour does not.
            tour.upkeep()
            if Int.random(in: 0 ..< 10, using: &rng) == 0 && tour.count.count >= 2 {
                let b = Int.random(in: 0 ..< tour.count.count, using: &rng)
                let c = Int.random(in: 0 ..< tour.count.count, using: &rng)
                tour.exchangeBlocks(b, c)
            }
            let roll = model.live.isEmpty ? 0 : Int.random(in: 0 ..< 100, using: &rng)
            switch roll {
            case 0 ..< 5:
                // A new root, at the end of the tour.
                let x = Int32(model.parent.count)
                let t = Int32.random(in: -5 ... 5, using: &rng)
                model.parent.append(-1)
                model.children.append([])
                model.tag.append(t)
                model.roots.append(x)
                model.live.append(x)
                tour.insertLeaf(x, tag: t, type: 1, before: nil)
            case 5 ..< 55:
                // A new leaf at a random index of a random node.
                let p = model.live.randomElement(using: &rng) ?? 0
                let index = Int.random(in: 0 ... model.children[Int(p)].count, using: &rng)
                let x = Int32(model.parent.count)
                let t = Int32.random(in: -5 ... 5, using: &rng)
                let before = tour.position(of: Self.anchor(model, p, index))
                model.parent.append(p)
                model.children.append([])
                model.tag.append(t)
                model.children[Int(p)].insert(x, at: index)
                model.live.append(x)
                tour.insertLeaf(x, tag: t, type: 1, before: before)
            case 55 ..< 70:
                // Remove a random subtree (a leaf most of the time, as in UIs).
                var x = model.live.randomElement(using: &rng) ?? 0
                if Int.random(in: 0 ..< 4, using: &rng) > 0 {
                    while let first = model.children[Int(x)].first { x = first }
                }
                var expected: [Int32] = []
                for y in model.live where model.inSubtree(y, of: x) { expected.append(y) }
                // Half the time, a cut (the run's blocks wait, their nodes pending) when the
                // run spans more than one block; else at once.
                if Bool.random(using: &rng), let cut = tour.cutRun(of: x, unlessWithin: 1) {
                    #expect(cut == expected.count, "seed \(seed), step \(step)")
                    for y in expected { #expect(tour.isPending(y), "\(y) pending, seed \(seed), step \(step)") }
                    waiting.formUnion(expected)
                } else {
                    var removed: [Int32] = []
                    tour.removeRun(of: x) { removed.append($0) }
                    #expect(removed.sorted() == expected.sorted(), "seed \(seed), step \(step)")
                }
                model.removeSubtree(x)
            case 70 ..< 90:
                // Move a random subtree under a node outside it, at a random index.
                let x = model.live.randomElement(using: &rng) ?? 0
                let p = model.live.randomElement(using: &rng) ?? 0
                guard !model.inSubtree(p, of: x) else { continue }
                model.detach(x)
                let index = Int.random(in: 0 ... model.children[Int(p)].count, using: &rng)
                let anchor = Self.anchor(model, p, index)
                model.children[Int(p)].insert(x, at: index)
                model.parent[Int(x)] = p
                tour.moveRun(of: x, before: anchor)
            case 90 ..< 95:
                // Detach a subtree: it becomes the last root.
                let x = model.live.randomElement(using: &rng) ?? 0
                model.detach(x)
                model.parent[Int(x)] = -1
                model.roots.append(x)
                tour.moveRun(of: x, before: nil)
            case 95 ..< 97:
                // Lay the tour out again: the same tokens, every block but the last at the
                // compaction's fill, blocks in memory in tour order.
                tour.reclaim(tokens: .max) { waiting.remove($0) }
                tour.compact()
                var b = tour.head
                var expected: Int32 = 0
                while b >= 0 {
                    #expect(b == expected, "block \(b) in memory order, seed \(seed), step \(step)")
                    #expect(tour.next[Int(b)] < 0 || tour.count[Int(b)] == Int32(_TourBlocks.compactFill), "block \(b) at the fill, seed \(seed), step \(step)")
                    expected += 1
                    b = tour.next[Int(b)]
                }
            default:
                let x = model.live.randomElement(using: &rng) ?? 0
                let t = Int32.random(in: -5 ... 5, using: &rng)
                model.tag[Int(x)] = t
                tour.setTag(t, of: x)
            }
            Self.check(tour, model, &rng, seed: seed, step: step)
            #expect(tour.pendingNodes == waiting.count, "seed \(seed), step \(step)")
            for y in waiting { #expect(tour.isPending(y), "\(y) pending, seed \(seed), step \(step)") }
            for y in model.live { #expect(!tour.isPending(y), "live \(y) not pending, seed \(seed), step \(step)") }
        }
        tour.reclaim(tokens: .max) { waiting.remove($0) }
        #expect(waiting.isEmpty && tour.pendingHead < 0, "everything cut is reclaimed")
        #expect(tour.count.count > 4, "the tree outgrew one block")
    }

    @Test(arguments: [0, 1, 2, 10, 100, 5_000], [62, 12])
    func appendingLeavesToOneParentSplitsBlocksAndRelabels(n: Int, labelBits: Int) {
        // The UI pattern that crowds labels most: every new child goes to the same place.
        var tour = _TourBlocks(labelBits: labelBits)
        var model = Model()
        model.parent = [-1]
        model.children = [[]]
        model.tag = [0]
        model.roots = [0]
        model.live = [0]
        tour.insertLeaf(0, tag: 0, type: 1, before: nil)
        for k in 0 ..< n {
            let x = Int32(k + 1)
            // Alternate the last and the first place, so both ends of the run get crowded.
            let index = k.isMultiple(of: 2) ? model.children[0].count : 0
            let before = tour.position(of: Self.anchor(model, 0, index))
            model.parent.append(0)
            model.children.append([])
            model.tag.append(Int32(k % 7))
            model.children[0].insert(x, at: index)
            model.live.append(x)
            tour.insertLeaf(x, tag: Int32(k % 7), type: 1, before: before)
        }
        var rng = SplitMix64(seed: 9)
        Self.check(tour, model, &rng, seed: 0, step: n)
        // Every leaf is a descendant of the root, and no leaf of another.
        if n >= 2 {
            #expect(tour.isProperAncestor(0, 1) && tour.isProperAncestor(0, Int32(n)))
            #expect(!tour.isProperAncestor(1, 2) && !tour.isProperAncestor(Int32(n), 0))
        }
        // A subtree scan visits exactly the descendants, in tour order.
        var scanned: [Int32] = []
        let s = tour.span[0]
        tour.forEachRun(from: s.enter, inclusive: false, to: s.exit) { run in
            for i in run where tour.token[i] >= 0 { scanned.append(tour.token[i]) }
        }
        #expect(scanned == model.children[0])
    }

    /// A tour whose blocks are scattered in memory (leaves appended under random parents
    /// split blocks anywhere) is laid out in list order by sweeps alone, with no mutation.
    @Test func sweepsLayBlocksOutInListOrder() {
        var rng = SplitMix64(seed: 11)
        var tour = _TourBlocks()
        tour.insertLeaf(0, tag: 0, type: 1, before: nil)
        for x in 1 ..< 20_000 as Range<Int32> {
            let p = Int32.random(in: 0 ..< x, using: &rng)
            tour.insertLeaf(x, tag: 0, type: 1, before: tour.span[Int(p)].exit)
        }
        func inOrder() -> Int {
            var (b, rank, placed) = (tour.head, Int32(0), 0)
            while b >= 0 {
                if b == rank { placed += 1 }
                (b, rank) = (tour.next[Int(b)], rank + 1)
            }
            return placed
        }
        let before = tour.checkedTokens()
        #expect(inOrder() < tour.liveBlocks / 4, "appends under random parents scatter the blocks")
        let blocks = tour.liveBlocks
        for _ in 0 ..< 3 * blocks { tour.sweep(swaps: 1, steps: 16) }
        #expect(inOrder() == tour.liveBlocks, "every block at its list rank")
        #expect(tour.checkedTokens() == before, "the tour is unchanged")
        // The sweep packed the blocks as it went: fewer of them, fuller.
        #expect(tour.liveBlocks < blocks)
        #expect(before.count / tour.liveBlocks >= _TourBlocks.sweepFill * 3 / 4)
        // Upkeep then moves the free blocks to the end and gives them back: the columns
        // keep at most an eighth of room spare.
        for _ in 0 ..< 2 * blocks { tour.upkeep() }
        #expect(tour.count.count == tour.liveBlocks, "no free block is left")
        #expect(tour.token.capacity - tour.token.count <= tour.token.count / 8, "the slot columns gave room back")
        #expect(tour.checkedTokens() == before)
    }

    @Test func removingEverythingFreesEveryBlockForReuse() {
        var tour = _TourBlocks()
        tour.insertLeaf(0, tag: 0, type: 1, before: nil)
        for x in 1 ..< 1_000 as Range<Int32> { tour.insertLeaf(x, tag: 0, type: 1, before: tour.span[0].exit) }
        let blocks = tour.count.count
        #expect(blocks > 10)
        var removed = 0
        tour.removeRun(of: 0) { _ in removed += 1 }
        #expect(removed == 1_000)
        #expect(tour.checkedTokens().isEmpty)
        #expect(tour.head == -1 && tour.tail == -1)
        for x in 0 ..< 1_000 as Range<Int32> { tour.insertLeaf(x, tag: 0, type: 1, before: nil) }
        #expect(tour.count.count == blocks, "freed blocks are reused before the pool grows")
        #expect(tour.checkedTokens().count == 2_000)
    }
}
