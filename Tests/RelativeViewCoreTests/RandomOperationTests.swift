import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// Seeded random mutations on a tree of up to ~300 nodes, mirrored on a plain model
/// (parent and children arrays per node), interleaved with queries whose answers are
/// compared to brute-force oracles: parent walks for ancestors, a recursive pre-order
/// for descendants.
@Suite struct RandomOperationTests {
    /// The model: what the tree must look like.
    struct Model {
        var parent: [NodeID: NodeID] = [:]
        var children: [NodeID: [NodeID]] = [:]
        var tag: [NodeID: Int] = [:]
        var type: [NodeID: TypeID] = [:]
        var live: [NodeID] = []
        var removed: [NodeID] = []

        mutating func add(_ id: NodeID, tag: Int, type: TypeID, under p: NodeID?) {
            live.append(id)
            children[id] = []
            self.tag[id] = tag
            self.type[id] = type
            if let p { link(id, under: p, at: children[p]!.count) }
        }

        mutating func unlink(_ x: NodeID) {
            guard let p = parent[x] else { return }
            children[p]!.removeAll { $0 == x }
            parent[x] = nil
        }

        mutating func link(_ x: NodeID, under p: NodeID, at k: Int) {
            parent[x] = p
            children[p]!.insert(x, at: k)
        }

        func ancestors(_ x: NodeID) -> [NodeID] {
            var result: [NodeID] = []
            var y = parent[x]
            while let p = y {
                result.append(p)
                y = parent[p]
            }
            return result
        }

        func descendants(_ x: NodeID) -> [NodeID] {
            var result: [NodeID] = []
            func visit(_ y: NodeID) {
                for c in children[y]! {
                    result.append(c)
                    visit(c)
                }
            }
            visit(x)
            return result
        }

        func recursiveSubviews(_ x: NodeID) -> [NodeID] {
            let subviews = children[x]!
            return subviews + subviews.flatMap { recursiveSubviews($0) }
        }

        mutating func remove(_ x: NodeID) {
            let doomed = [x] + descendants(x)
            unlink(x)
            let set = Set(doomed)
            live.removeAll { set.contains($0) }
            for d in doomed {
                parent[d] = nil
                children[d] = nil
                tag[d] = nil
                type[d] = nil
            }
            removed.append(contentsOf: doomed)
        }

        func isProperAncestor(_ a: NodeID, of b: NodeID) -> Bool { ancestors(b).contains(a) }
    }

    static let tagPool = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, Int.max, Int.min, Int(Int32.min)]

    /// Seeds 4 and 5 cut every removed subtree longer than one index block, so that its
    /// slots wait to be freed by the mutations after (as a large subtree's do).
    @Test(arguments: 1 ... 5)
    func randomMutationsAgreeWithTheModel(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        var tree = ViewTree()
        if seed >= 4 { tree._storage.tour.blocksRemovedAtOnce = 1 }
        var model = Model()
        let note: Comment = "seed \(seed)"

        func pick() -> NodeID { model.live.randomElement(using: &rng)! }
        func randomTag() -> Int { Self.tagPool.randomElement(using: &rng)! }
        func randomType() -> TypeID { Ty.all.randomElement(using: &rng)! }

        for step in 0 ..< 2000 {
            let here: Comment = "seed \(seed) step \(step)"
            let op = model.live.count < 3 ? 0 : Int.random(in: 0 ..< 100, using: &rng)
            var touched: [NodeID] = []
            switch op {
            case 0 ..< 8 where model.live.count < 300: // makeNode
                let (t, ty) = (randomTag(), randomType())
                let id = tree.makeNode(tag: t, type: ty)
                #expect(!model.live.contains(id), here)
                model.add(id, tag: t, type: ty, under: nil)
                touched = [id]
            case 0 ..< 30 where model.live.count < 300: // appendChild
                let p = pick()
                let (t, ty) = (randomTag(), randomType())
                let id = tree.appendChild(tag: t, type: ty, to: p)
                model.add(id, tag: t, type: ty, under: p)
                touched = [id, p]
            case 30 ..< 40: // append(_:to:), legal moves only
                let (x, p) = (pick(), pick())
                guard x != p, !model.isProperAncestor(x, of: p) else { break }
                let old = model.parent[x]
                tree.append(x, to: p)
                model.unlink(x)
                model.link(x, under: p, at: model.children[p]!.count)
                touched = [x, p] + (old.map { [$0] } ?? [])
            case 40 ..< 48: // insert(_:into:at:)
                let (x, p) = (pick(), pick())
                guard x != p, !model.isProperAncestor(x, of: p) else { break }
                let old = model.parent[x]
                model.unlink(x)
                let k = Int.random(in: 0 ... model.children[p]!.count, using: &rng)
                tree.insert(x, into: p, at: k)
                model.link(x, under: p, at: k)
                touched = [x, p] + (old.map { [$0] } ?? [])
            case 48 ..< 56: // insert(_:before:) / insert(_:after:)
                let (x, s) = (pick(), pick())
                guard x != s, let p = model.parent[s], x != p, !model.isProperAncestor(x, of: p) else { break }
                let old = model.parent[x]
                let after = Bool.random(using: &rng)
                if after { tree.insert(x, after: s) } else { tree.insert(x, before: s) }
                model.unlink(x)
                let k = model.children[p]!.firstIndex(of: s)! + (after ? 1 : 0)
                model.link(x, under: p, at: k)
                touched = [x, p, s] + (old.map { [$0] } ?? [])
            case 56 ..< 62: // detach
                let x = pick()
                let old = model.parent[x]
                tree.detach(x)
                model.unlink(x)
                touched = [x] + (old.map { [$0] } ?? [])
            case 62 ..< 70: // removeSubtree, of small subtrees mostly
                let x = pick()
                guard model.descendants(x).count < 40 || model.live.count > 250 else { break }
                let old = model.parent[x]
                tree.removeSubtree(x)
                model.remove(x)
                touched = old.map { [$0] } ?? []
            case 70 ..< 76: // makeFirstChild / makeLastChild
                let x = pick()
                let front = Bool.random(using: &rng)
                if front { tree.makeFirstChild(x) } else { tree.makeLastChild(x) }
                if let p = model.parent[x] {
                    model.unlink(x)
                    model.link(x, under: p, at: front ? 0 : model.children[p]!.count)
                    touched = [x, p]
                }
            case 76 ..< 84: // exchangeChildren
                let p = pick()
                let count = model.children[p]!.count
                guard count > 0 else { break }
                let i = Int.random(in: 0 ..< count, using: &rng)
                let j = Int.random(in: 0 ..< count, using: &rng)
                tree.exchangeChildren(of: p, at: i, j)
                model.children[p]!.swapAt(i, j)
                touched = [p]
            case 84 ..< 90: // setTag / setType
                let x = pick()
                if Bool.random(using: &rng) {
                    let t = randomTag()
                    tree.setTag(t, of: x)
                    model.tag[x] = t
                } else {
                    let ty = randomType()
                    tree.setType(ty, of: x)
                    model.type[x] = ty
                }
                touched = [x]
            case 90 ..< 92: // compactIndex: the same tree, its index laid out again
                tree.compactIndex()
            default:
                break
            }
            tree._checkInvariants()
            #expect(tree.count == model.live.count, here)

            // The links of the touched nodes.
            for x in touched where model.children[x] != nil {
                #expect(tree.kids(x) == model.children[x]!, here)
                #expect(tree.parent(of: x) == model.parent[x], here)
                if let p = model.parent[x] {
                    let sibs = model.children[p]!
                    let k = sibs.firstIndex(of: x)!
                    #expect(tree.previousSibling(of: x) == (k > 0 ? sibs[k - 1] : nil), here)
                    #expect(tree.nextSibling(of: x) == (k + 1 < sibs.count ? sibs[k + 1] : nil), here)
                } else {
                    #expect(tree.previousSibling(of: x) == nil && tree.nextSibling(of: x) == nil, here)
                }
            }
            // A few removed ids are stale.
            for r in model.removed.suffix(3) { #expect(!tree.contains(r), here) }

            // Queries.
            guard !model.live.isEmpty else { continue }
            for _ in 0 ..< 3 {
                let (a, b) = (pick(), pick())
                let ancestorsOfB = model.ancestors(b)
                // Check the oracle itself against the tree's parent links.
                #expect(oracleAncestors(tree, b) == ancestorsOfB, here)
                #expect(tree.isAncestor(a, of: b) == ancestorsOfB.contains(a), here)
                #expect(tree.isDescendant(b, of: a) == ancestorsOfB.contains(a), here)
                #expect(tree.isSibling(a, of: b) == (a != b && model.parent[a] != nil && model.parent[a] == model.parent[b]), here)
                let lca = ([a] + model.ancestors(a)).first { ([b] + ancestorsOfB).contains($0) }
                #expect(tree.lowestCommonAncestor(a, b) == lca, here)
            }
            let x = pick()
            switch Int.random(in: 0 ..< 9, using: &rng) {
            case 0:
                #expect(Array(tree.ancestors(of: x)) == model.ancestors(x), here)
                #expect(tree.depth(of: x) == model.ancestors(x).count, here)
                #expect(tree.root(of: x) == (model.ancestors(x).last ?? x), here)
            case 1:
                let expected = model.descendants(x)
                #expect(oracleDescendants(tree, x) == expected, here)
                #expect(Array(tree.descendants(of: x)) == expected, here)
            case 2:
                #expect(tree.subtreeSize(of: x) == model.descendants(x).count + 1, here)
            case 3:
                let asked = (0 ..< Int.random(in: 0 ..< 12, using: &rng)).map { _ in randomTag() }
                let set = Set(asked)
                let expected = oracleGroup(model.descendants(x)) { set.contains(model.tag[$0]!) ? model.tag[$0]! : nil }
                #expect(tree.group(.descendants, of: x, byTags: asked) == expected, "\(here) tags \(asked)")
            case 4:
                let asked = Ty.all.filter { _ in Bool.random(using: &rng) }
                let expected = oracleGroup(model.descendants(x)) { asked.contains(model.type[$0]!) ? model.type[$0]! : nil }
                #expect(tree.group(.descendants, of: x, byTypes: asked) == expected, here)
                let shared = Dictionary(uniqueKeysWithValues: asked.map { ($0, 0) })
                let one = oracleGroup(model.descendants(x)) { asked.contains(model.type[$0]!) ? 0 : nil }
                #expect(tree.group(.descendants, of: x, keyingTypes: shared) == one, here)
            case 5:
                let asked = (0 ..< Int.random(in: 0 ..< 6, using: &rng)).map { _ in randomTag() }
                let set = Set(asked)
                let expected = oracleGroup(model.ancestors(x)) { set.contains(model.tag[$0]!) ? model.tag[$0]! : nil }
                #expect(tree.group(.ancestors, of: x, byTags: asked) == expected, "\(here) tags \(asked)")
                let types = Ty.all.filter { _ in Bool.random(using: &rng) }
                let byType = oracleGroup(model.ancestors(x)) { types.contains(model.type[$0]!) ? model.type[$0]! : nil }
                #expect(tree.group(.ancestors, of: x, byTypes: types) == byType, here)
                let first = model.ancestors(x).first { types.contains(model.type[$0]!) }
                #expect(tree.first(.ancestors, of: x, withTypes: types) == first, here)
            case 6:
                let sibs = model.parent[x].map { model.children[$0]!.filter { $0 != x } } ?? []
                #expect(Array(tree.siblings(of: x)) == sibs, here)
                let asked = (0 ..< Int.random(in: 0 ..< 6, using: &rng)).map { _ in randomTag() }
                let set = Set(asked)
                let expected = oracleGroup(sibs) { set.contains(model.tag[$0]!) ? model.tag[$0]! : nil }
                #expect(tree.group(.siblings, of: x, byTags: asked) == expected, "\(here) tags \(asked)")
            case 7:
                #expect(tree.recursiveSubviews(of: x) == model.recursiveSubviews(x), here)
            default:
                // Every node's links and tags, now and then.
                for y in model.live {
                    #expect(tree.kids(y) == model.children[y]!, here)
                    #expect(tree.tag(of: y) == model.tag[y]!, here)
                    #expect(tree.typeID(of: y) == model.type[y]!, here)
                }
                #expect(Set(tree.roots) == Set(model.live.filter { model.parent[$0] == nil }), here)
            }
        }
        // Final full comparison, on a fresh index.
        tree._checkInvariants()
        for y in model.live {
            #expect(tree.kids(y) == model.children[y]!, note)
            #expect(Array(tree.descendants(of: y)) == model.descendants(y), note)
            #expect(tree.subtreeSize(of: y) == model.descendants(y).count + 1, note)
        }
        #expect(model.removed.count > 50, "\(note): the run should remove nodes")
        #expect(model.live.count > 50, "\(note): the run should keep a sizeable tree")
    }
}
