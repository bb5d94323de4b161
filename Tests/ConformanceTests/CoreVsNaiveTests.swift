import Testing
import RelativeViewCore
import RelativeViewNaive
import RelativeViewFixtures

/// The arena core and the naive core, driven by the same random operations; every query is
/// compared element by element, in order. Every step is one mutation, then the index's full
/// invariant check (debug builds: the index must be the links' Euler tour, O(n)), then the
/// queries of `check` on a random pair: no warm-up, no step left unchecked.
struct CoreVsNaiveTests {
    /// Both forests with a handle per node.
    struct Model {
        var tree = ViewTree()
        var ids: [NodeID] = []
        var naive: [NaiveView] = []
        var handleOfID: [NodeID: Int] = [:]
        var handleOfNaive: [ObjectIdentifier: Int] = [:]
        let typeIDs = StockCatalog.names.map { TypeRegistry.shared.typeID(named: $0) }

        mutating func add(type k: Int, tag: Int, under parent: Int?) {
            let id = parent.map { tree.appendChild(tag: tag, type: typeIDs[k], to: ids[$0]) } ?? tree.makeNode(tag: tag, type: typeIDs[k])
            let n = StockCatalog.makeNaive(k)
            n.tag = tag
            if let parent { naive[parent].addSubview(n) }
            handleOfID[id] = ids.count
            handleOfNaive[ObjectIdentifier(n)] = naive.count
            ids.append(id)
            naive.append(n)
        }

        /// Removes the handles of a subtree (already removed from the tree), keeping the arrays dense.
        mutating func forget(_ handlesToDrop: Set<Int>) {
            let keep = ids.indices.filter { !handlesToDrop.contains($0) }
            ids = keep.map { ids[$0] }
            naive = keep.map { naive[$0] }
            handleOfID = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
            handleOfNaive = Dictionary(uniqueKeysWithValues: naive.enumerated().map { (ObjectIdentifier($1), $0) })
        }

        func h(_ id: NodeID) -> Int { handleOfID[id] ?? -1 }
        func h(_ n: NaiveView) -> Int { handleOfNaive[ObjectIdentifier(n)] ?? -1 }
        func names(_ groups: [TypeID: [NodeID]]) -> [String: [Int]] {
            Dictionary(uniqueKeysWithValues: groups.map { (TypeRegistry.shared.name(of: $0.key), $0.value.map(h)) })
        }
    }

    @Test("every mutation, then queries that agree with the naive core", arguments: [1, 2, 3, 4] as [UInt64])
    func randomSequence(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var m = Model()
        for _ in 0 ..< 3 { m.add(type: 0, tag: 0, under: nil) }
        var queries = 0
        for step in 0 ..< 10_000 {
            let note = Comment(rawValue: "seed \(seed), step \(step)")
            let count = m.ids.count
            let a = Int.random(in: 0 ..< count, using: &rng)
            // One pair in eight is a node with itself: never its own relative.
            let b = Int.random(in: 0 ..< 8, using: &rng) == 0 ? a : Int.random(in: 0 ..< count, using: &rng)
            let (ia, ib, na, nb) = (m.ids[a], m.ids[b], m.naive[a], m.naive[b])
            switch Int.random(in: 0 ..< 52, using: &rng) {
            case 0 ..< 22 where count < 400:
                m.add(type: Int.random(in: 0 ..< StockCatalog.names.count, using: &rng), tag: rng.tag(), under: a)
            case 0 ..< 22:
                // Keep the trees small: remove a subtree that is not one of the first roots.
                guard a >= 3 else { break }
                let dropped = Set([a] + na.recursiveSubviews.map(m.h))
                m.tree.removeSubtree(ia)
                na.removeFromSuperview()
                m.forget(dropped)
            case 22 ..< 34:
                // Move a under b, at a random position, unless that would make a cycle.
                guard a != b, !na.isRelativeAncestor(of: nb) else { break }
                let position = Int.random(in: 0 ..< 4, using: &rng)
                if position == 0 {
                    m.tree.append(ia, to: ib)
                    nb.addSubview(na)
                } else if position == 1 {
                    let limit = nb.subviews.filter { $0 !== na }.count
                    let i = Int.random(in: 0 ... limit, using: &rng)
                    m.tree.insert(ia, into: ib, at: i)
                    nb.insertSubview(na, at: i)
                } else if let sibling = nb.subviews.filter({ $0 !== na }).randomElement(using: &rng) {
                    let s = m.ids[m.h(sibling)]
                    if position == 2 {
                        m.tree.insert(ia, before: s)
                        nb.insertSubview(na, belowSubview: sibling)
                    } else {
                        m.tree.insert(ia, after: s)
                        nb.insertSubview(na, aboveSubview: sibling)
                    }
                }
            case 34 ..< 38:
                m.tree.detach(ia)
                na.removeFromSuperview()
            case 38 ..< 42:
                if Bool.random(using: &rng) {
                    m.tree.moveToFront(ia)
                    na.superview?.sendSubviewToBack(na)
                } else {
                    m.tree.moveToBack(ia)
                    na.superview?.bringSubviewToFront(na)
                }
            case 42 ..< 45:
                let n = na.subviews.count
                guard n > 0 else { break }
                let (i, j) = (Int.random(in: 0 ..< n, using: &rng), Int.random(in: 0 ..< n, using: &rng))
                m.tree.exchangeChildren(of: ia, at: i, j)
                na.exchangeSubview(at: i, withSubviewAt: j)
            case 45 ..< 50:
                let tag = rng.tag()
                m.tree.setTag(tag, of: ia)
                na.tag = tag
            default:
                // A root goes, its children stay as roots (what freeing a root view does).
                guard a >= 3, m.tree.parent(of: ia) == nil else { break }
                for child in na.subviews { child.removeFromSuperview() }
                m.tree.removeRootKeepingChildren(ia)
                m.forget([a])
            }
            m.tree._checkInvariants()
            let live = m.ids.count
            let (x, y) = (Int.random(in: 0 ..< live, using: &rng), Int.random(in: 0 ..< live, using: &rng))
            queries += 1
            check(m, x, y, &rng, note)
        }
        #expect(queries == 10_000, "seed \(seed): every step was checked")
    }

    func check(_ m: Model, _ a: Int, _ b: Int, _ rng: inout SplitMix64, _ note: Comment) {
        let tree = m.tree
        let (ia, ib, na, nb) = (m.ids[a], m.ids[b], m.naive[a], m.naive[b])
        let tags = rng.tags()
        let types = rng.typeIndices()
        let typeIDs = types.map { m.typeIDs[$0] }
        let naiveTypes = types.map { StockCatalog.naiveViews[$0] }
        switch Int.random(in: 0 ..< 17, using: &rng) {
        case 0: #expect(tree.isAncestor(ia, of: ib) == na.isRelativeAncestor(of: nb), note)
        case 1: #expect(tree.isDescendant(ia, of: ib) == na.isRelativeDescendant(of: nb), note)
        case 2: #expect(tree.isSibling(ia, of: ib) == na.isRelativeSibling(of: nb), note)
        case 3: #expect(tree.firstAncestor(of: ia, withTags: tags).map(m.h) == na.findFirstAncestor(by: tags).map(m.h), note)
        case 4: #expect(tree.firstAncestor(of: ia, withTypes: typeIDs).map(m.h) == na.findFirstAncestor(by: naiveTypes).map(m.h), note)
        case 5: #expect(tree.firstAncestor(of: ia) { tree.tag(of: $0) == tree.tag(of: ib) }.map(m.h) == na.findFirstAncestor { $0.tag == nb.tag }.map(m.h), note)
        case 6: #expect(handles(tree.groupAncestors(of: ia, byTags: tags), m.h) == handles(na.groupAncestors(by: tags), m.h), note)
        case 7: #expect(m.names(tree.groupAncestors(of: ia, byTypes: typeIDs)) == typeGroups(na.groupAncestors(by: naiveTypes), m.h), note)
        case 8: #expect(handles(tree.groupAncestors(of: ia) { closureKey(tree.tag(of: $0)) }, m.h) == handles(na.groupAncestors { closureKey($0.tag) }, m.h), note)
        case 9: #expect(handles(tree.groupDescendants(of: ia, byTags: tags), m.h) == handles(na.groupDescendants(by: tags), m.h), note)
        case 10: #expect(m.names(tree.groupDescendants(of: ia, byTypes: typeIDs)) == typeGroups(na.groupDescendants(by: naiveTypes), m.h), note)
        case 11: #expect(handles(tree.groupDescendants(of: ia) { closureKey(tree.tag(of: $0)) }, m.h) == handles(na.groupDescendants { closureKey($0.tag) }, m.h), note)
        case 12: #expect(handles(tree.groupSiblings(of: ia, byTags: tags), m.h) == handles(na.groupSiblings(by: tags), m.h), note)
        case 13: #expect(m.names(tree.groupSiblings(of: ia, byTypes: typeIDs)) == typeGroups(na.groupSiblings(by: naiveTypes), m.h), note)
        case 14: #expect(handles(tree.groupSiblings(of: ia) { closureKey(tree.tag(of: $0)) }, m.h) == handles(na.groupSiblings { closureKey($0.tag) }, m.h), note)
        case 15: #expect(tree.recursiveSubviews(of: ia).map(m.h) == na.recursiveSubviews.map(m.h), note)
        default:
            #expect(tree.parent(of: ia).map(m.h) == na.superview.map(m.h), note)
            #expect(tree.children(of: ia).map(m.h) == na.subviews.map(m.h), note)
            #expect(tree.lowestCommonAncestor(ia, ib).map(m.h) == naiveLCA(na, nb).map(m.h), note)
            #expect(tree.depth(of: ia) == Array(sequence(first: na, next: { $0.superview })).count - 1, note)
            #expect(tree.subtreeSize(of: ia) == na.recursiveSubviews.count + 1, note)
        }
    }

    func naiveLCA(_ a: NaiveView, _ b: NaiveView) -> NaiveView? {
        let above = Set(sequence(first: b, next: { $0.superview }).map(ObjectIdentifier.init))
        return sequence(first: a, next: { $0.superview }).first { above.contains(ObjectIdentifier($0)) }
    }
}
