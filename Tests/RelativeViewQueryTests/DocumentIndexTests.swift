import Foundation
import RelativeViewCore
import RelativeViewFixtures
import RelativeViewImport
@testable import RelativeViewQuery
import RelativeViewSnapshot
import Testing

/// The document index's `end` column (per rank, the rank after its subtree) comes one of
/// three ways: from the spans alone where the tour lies in slot order and the slots are
/// entered in slot order (an import, a loaded snapshot of one), from one pass over the
/// tokens where only the second holds, and from ranks made afresh otherwise (a tree after
/// moves, or with free slots). Each is checked here against a count through the public
/// API, on trees that take each way.
@Suite struct DocumentIndexTests {
    /// Per node in document order, the place after its subtree in that order.
    static func expectedEnds(_ tree: ViewTree) -> (order: [NodeID], ends: [Int32]) {
        let order = tree.roots.flatMap { [$0] + tree.descendants(of: $0) }
        let ends = order.indices.map { r in Int32(r + 1 + tree.descendants(of: order[r]).count) }
        return (order, ends)
    }

    /// The index of `tree` against the count, and which way it took: `true` when its ranks
    /// are the slots.
    @discardableResult
    static func check(_ tree: ViewTree, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let index = _DocumentIndex(tree)
        let (order, ends) = expectedEnds(tree)
        #expect(index.ends(of: tree) == ends, "\(label): end", sourceLocation: sourceLocation)
        if let slots = index.order {
            #expect(slots == order.map { Int32($0.index) }, "\(label): order", sourceLocation: sourceLocation)
        } else {
            #expect(order.map { Int32($0.index) } == Array(0 ..< Int32(order.count)), "\(label): ranks are slots", sourceLocation: sourceLocation)
        }
        return index.order == nil
    }

    static func imported(values: Int, seed: UInt64) throws -> ViewTree {
        try TreeImporter().importTree(SampleDocuments.json(values: values, seed: seed), format: .json, path: "sample.json")
    }

    static func loaded(_ tree: ViewTree) throws -> ViewTree {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).rvtree").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try tree.writeSnapshot(to: path)
        return try ViewTree(contentsOfSnapshot: path, mapped: true)
    }

    /// Moves `count` random subtrees under other nodes.
    static func moved(_ tree: ViewTree, count: Int, seed: UInt64) -> ViewTree {
        var t = tree
        var rng = SplitMix64(seed: seed)
        let all = t.roots + t.descendants(of: t.roots[0])
        var moved = 0
        while moved < count {
            let node = all[Int.random(in: 1 ..< all.count, using: &rng)]
            let target = all[Int.random(in: 0 ..< all.count, using: &rng)]
            guard target != node, !t.isDescendant(target, of: node) else { continue }
            t.append(node, to: target)
            moved += 1
        }
        return t
    }

    @Test func anImportAndItsSnapshotReadTheSpans() throws {
        let tree = try Self.imported(values: 2000, seed: 3)
        #expect(_DocumentIndex.spansGiveEnds(tree))
        #expect(Self.check(tree, "imported"))
        let loaded = try Self.loaded(tree)
        #expect(_DocumentIndex.spansGiveEnds(loaded))
        #expect(Self.check(loaded, "loaded"))
    }

    @Test func aMovedTreeTakesTheGeneralWay() throws {
        let tree = Self.moved(try Self.imported(values: 2000, seed: 4), count: 50, seed: 5)
        #expect(!_DocumentIndex.spansGiveEnds(tree) && _DocumentIndex.endsInSlotOrder(tree) == nil)
        #expect(!Self.check(tree, "moved"))
        // Saved and loaded: the tour lies in slot order again, but the slots are not entered
        // in slot order, which the spans' order shows.
        let loaded = try Self.loaded(tree)
        #expect(!_DocumentIndex.spansGiveEnds(loaded) && _DocumentIndex.endsInSlotOrder(loaded) == nil)
        #expect(!Self.check(loaded, "moved, then loaded"))
    }

    /// An answer's ids: by the slot and stamp of each rank, or by the slot alone where no
    /// slot was ever reused (every stamp the same), against the ids in document order.
    @Test func idsOfRanksOnMovedTrees() throws {
        let moved = Self.moved(try Self.imported(values: 2000, seed: 9), count: 50, seed: 10)
        let index = _DocumentIndex(moved)
        #expect(index.order != nil && index.uniformStamp != nil && index.stampByRank == nil)
        let order = Self.expectedEnds(moved).order
        #expect(index.nodeIDs((0 ..< Int32(order.count)).reversed(), of: moved) == order.reversed())
        // A slot freed and taken again: its id's stamp differs from the others'.
        var reused = moved
        let root = reused.roots[0]
        reused.removeSubtree(Array(reused.children(of: root))[0])
        _ = reused.appendChild(type: TypeRegistry.shared.typeID(named: "extra"), to: root)
        let again = _DocumentIndex(reused)
        #expect(again.order != nil && again.uniformStamp == nil && again.stampByRank != nil)
        let reusedOrder = Self.expectedEnds(reused).order
        #expect(again.nodeIDs(Array(0 ..< Int32(reusedOrder.count)), of: reused) == reusedOrder)
    }

    /// A moved tree's slots and ids through its runs of slots: every rank's slot, and ids of
    /// ranks ascending (an answer's), in reverse, at random, far apart and none, against the
    /// ids in document order; a tree moved so much that its runs pass the limit keeps none.
    @Test func idsThroughRunsOfSlots() throws {
        let tree = try Self.imported(values: 20_000, seed: 11)
        let moved = Self.moved(tree, count: 40, seed: 12)
        let index = _DocumentIndex(moved)
        let runs = try #require(index.slotRuns)
        #expect(runs.ranks.count > 40 && runs.ranks.count <= moved.count / _SlotRuns.limit + 1)
        #expect(runs.ranks.first == 0 && runs.ranks.count == runs.slots.count)
        let order = Self.expectedEnds(moved).order
        let all = Array(0 ..< Int32(order.count))
        #expect(all.map(runs.slot) == order.map { Int32($0.index) })
        // The run each rank lies in (an evaluator keeps the last: `_XPathEvaluator.slot`).
        #expect(all.allSatisfy { r in
            let run = runs.run(of: r)
            return run.low <= r && r < run.high && r &+ run.delta == Int32(order[Int(r)].index)
        })
        #expect(runs.run(of: Int32(order.count - 1)).high == .max)
        #expect(index.nodeIDs(all, of: moved) == order)
        #expect(index.nodeIDs(all.reversed(), of: moved) == order.reversed())
        var rng = SplitMix64(seed: 13)
        let some = (0 ..< 500).map { _ in Int32.random(in: 0 ..< Int32(order.count), using: &rng) }
        #expect(index.nodeIDs(some, of: moved) == some.map { order[Int($0)] })
        let sparse = stride(from: Int32(5), to: Int32(order.count), by: 997).map { $0 }
        #expect(index.nodeIDs(sparse, of: moved) == sparse.map { order[Int($0)] })
        #expect(index.nodeIDs([], of: moved).isEmpty)
        // Ranks repeated (an element and its attribute in one answer), then a step back.
        var repeated: [Int32] = []
        for r in all { repeated += r % 3 == 0 ? [r, r] : [r] }
        repeated += [7, 3]
        #expect(index.nodeIDs(repeated, of: moved) == repeated.map { order[Int($0)] })
        // More than one run in `_SlotRuns.limit` ranks: the slot of each rank is read instead.
        let scrambled = Self.moved(try Self.imported(values: 2000, seed: 14), count: 400, seed: 15)
        #expect(_DocumentIndex(scrambled).slotRuns == nil)
        #expect(_DocumentIndex(scrambled).order != nil)
        #expect(Self.check(scrambled, "scrambled") == false)
    }

    /// Attribute tests over sets of many nodes, which ask for each node's attributes ahead
    /// of its test (`_AttributesAhead`, through the runs of slots on a moved tree): the same
    /// nodes, in document order, as on the moved tree read back (slots in document order).
    @Test func attributeTestsOnMovedTrees() throws {
        var text = "<site>"
        for i in 0 ..< 3000 {
            text += "<item id='item\(i)' k='\(i % 7)'><name>n\(i)</name><sub"
            text += i % 5 == 0 ? ">" : " a='x\(i % 3)'>"
            text += "<leaf/></sub></item>"
        }
        text += "</site>"
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "items.xml")
        // Elements moved under elements (never under a text, which XML could not write).
        var moved = tree
        moved._moveRandomSubtrees(60, seed: 21)
        let index = _DocumentIndex(moved)
        #expect(index.order != nil && index.slotRuns != nil, "after moves the ranks find their slots through runs")
        let back = try TreeImporter().importTree(Array(try moved.string(as: .xml).utf8), format: .xml, path: "back.xml")
        #expect(_DocumentIndex(back).order == nil)
        func ranks(_ ids: [NodeID], _ t: ViewTree) -> [Int] {
            let order = Self.expectedEnds(t).order
            let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            return ids.map { rank[$0]! }
        }
        for css in ["item[id^='item1']", "item[k='3']", "[a]", "sub[a$='2']", "item[id*='99'] > name", "item:not([k='0'])"] {
            let selector = try CSSSelector(css)
            let ours = ranks(try moved.select(selector), moved), theirs = ranks(try back.select(selector), back)
            #expect(ours == theirs && !ours.isEmpty, "\(css): \(ours.count) \(theirs.count)")
        }
        for xpath in ["//item[@id='item1234']", "//item[@k='3']", "//sub[@a]", "//*[@a='x1' or @k='2']", "//item[not(@k='1')]/name"] {
            let query = try XPath(xpath)
            let ours = ranks(try moved.select(query), moved), theirs = ranks(try back.select(query), back)
            #expect(ours == theirs && !ours.isEmpty, "\(xpath)")
        }
        // The index keeps each rank's first attribute entry (read by rank): the slot's own.
        let firsts = try #require(index.firstByRank)
        let order = try #require(index.order)
        moved._withWriterView { view in
            #expect(order.indices.allSatisfy { r in firsts[r] == (Int(order[r]) < view.first.count ? view.first[Int(order[r])] : -1) })
        }
        // Attributes edited after the moves: the shape, the version and the index stay, the
        // runs change (a run moved to the end, a run made, a run removed), and the index's
        // first entries are no longer read (its stamp differs from the runs').
        let some = try #require(moved.select(try CSSSelector("item[id='item7']")).first)
        let leaf = try #require(moved.select(try CSSSelector("leaf")).first)
        let other = try #require(moved.select(try CSSSelector("item[id='item8']")).first)
        let built = _DocumentIndex.of(moved)
        moved.setAttribute(named: "id", "renamed", of: some)
        moved.setAttribute(named: "extra", "v", of: some)
        moved.setAttribute(named: "new", "v", of: leaf)
        moved.setAttribute(named: "id", nil, of: other)
        moved.setAttribute(named: "k", nil, of: other)
        #expect(_DocumentIndex.of(moved) === built, "an attribute's edit keeps the version and its index")
        #expect(try moved.select(try CSSSelector("item[id='renamed'][extra='v']")) == [some])
        #expect(try moved.select(try CSSSelector("item[id='item7']")).isEmpty)
        #expect(try moved.select(try CSSSelector("leaf[new='v']")) == [leaf])
        #expect(try moved.select(try CSSSelector("item[id='item8']")).isEmpty)
        #expect(try moved.select(XPath("//*[@new]")) == [leaf])
        let stillThere = try moved.select(try CSSSelector("item[k='3']"))
        #expect(!stillThere.isEmpty && stillThere.allSatisfy { moved.namedAttributes(of: $0).contains { $0.name == "k" && $0.value == "3" } })
    }

    @Test func freeSlotsTakeTheGeneralWay() throws {
        var tree = try Self.imported(values: 2000, seed: 6)
        let root = tree.roots[0]
        tree.removeSubtree(Array(tree.children(of: root))[1])
        #expect(tree.slotCount > tree.count)
        #expect(!Self.check(tree, "removed"))
        #expect(!Self.check(try Self.loaded(tree), "removed, then loaded"))
    }

    @Test func aLargeTreeInPiecesOnTwoThreads() throws {
        // More than two pieces of 2^18 nodes: the second thread takes some, and each piece
        // compares its last slot's enter with the next piece's first.
        let tree = try Self.loaded(try Self.imported(values: 700_000, seed: 8))
        #expect(tree.count > 2 << 18)
        let index = _DocumentIndex(tree)
        #expect(index.order == nil)
        // The ends against one pass over the tokens (the count above is quadratic here).
        #expect(index.end == nil && index.ends(of: tree) == _DocumentIndex.endsInSlotOrder(tree))
    }

    /// The postings (per type, its ranks in document order) against a dictionary of
    /// arrays, made both ways: all types' at once from their counts, and one type's alone;
    /// over two halves on two threads from 2^20 ranks on, with a type that only one half
    /// has, and negative entries and entries past the bound (no type) skipped.
    @Test(arguments: [1000, (1 << 20) + 77])
    func postingsAgainstADictionary(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        var types = (0 ..< count).map { _ in Int32.random(in: -1 ... 40, using: &rng) }
        types[count - 1] = 41
        types[count / 3] = 42  // past the bound
        var expected: [Int32: [Int32]] = [:]
        for (r, t) in types.enumerated() where t >= 0 && t < 42 { expected[t, default: []].append(Int32(r)) }
        let counts = types.withUnsafeBufferPointer { _DocumentIndex.counts($0, bound: 42) }
        #expect(counts.total == (0 ..< 42).map { Int32(expected[Int32($0), default: []].count) })
        let postings = types.withUnsafeBufferPointer { _DocumentIndex.makePostings($0, counts: counts) }
        #expect(postings.start.count == 43)
        for t in 0 ... 41 {
            let ranks = Array(postings.ranks[Int(postings.start[t]) ..< Int(postings.start[t + 1])])
            #expect(ranks == expected[Int32(t), default: []], "type \(t)")
            let alone = types.withUnsafeBufferPointer { _DocumentIndex.collect(Int32(t), count: Int(counts.total[t]), firstHalf: Int(counts.firstHalf[t]), in: $0) }
            #expect(alone == expected[Int32(t), default: []], "type \(t) alone")
        }
        let none = types.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[0 ..< 0]) }
        #expect(_DocumentIndex.makePostings(none, counts: _DocumentIndex.counts(none, bound: 42)).ranks.isEmpty)
    }

    /// An index answers each type's ranks the same before and after it switches from one
    /// pass a type (the first ``_DocumentIndex/typesScannedApart`` types asked for) to all
    /// types' postings; a type the tree does not have has none.
    @Test func typeRanksBothWays() throws {
        let tree = try Self.imported(values: 20_000, seed: 21)
        for (name, t) in [("imported", tree), ("moved", Self.moved(tree, count: 40, seed: 22))] {
            let index = _DocumentIndex(t)
            let types = Self.expectedEnds(t).order.map { t.typeID(of: $0).rawValue }
            let present = Set(types).sorted()
            #expect(present.count > _DocumentIndex.typesScannedApart, "enough types to pass the switch")
            let absent = (0 ..< Int32(TypeRegistry.shared.count)).first { !present.contains($0) }
            types.withUnsafeBufferPointer { buffer in
                for round in 0 ..< 2 {
                    for type in present + (absent.map { [$0] } ?? []) {
                        let got = index.ranks(ofType: type, types: buffer)
                        let expected = types.indices.filter { types[$0] == type }.map(Int32.init)
                        #expect(Array(got.ranks[got.lower ..< got.upper]) == expected, "\(name): type \(type), round \(round)")
                    }
                }
                #expect(index.typeCounts(types: buffer).reduce(0, +) == Int32(types.count))
            }
        }
    }
}
