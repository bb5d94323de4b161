import RelativeViewCore
import RelativeViewFixtures

/// One step of the `churn` operation: a UI-like mutation, then one query, in node numbers.
///
/// Node numbers below the tree's size at the start of `churn` are its nodes; new leaves get
/// the next numbers, in order of creation.
struct ChurnStep {
    enum Mutation {
        /// A new leaf `node` as the last child of `parent` (`addSubview`).
        case append(node: Int32, parent: Int32)
        /// A new leaf `node` as child `index` of `parent` (`insertSubview(_:at:)`).
        case insert(node: Int32, parent: Int32, index: Int32)
        /// A leaf removed from the tree (`removeFromSuperview`; the core frees its slot).
        case remove(leaf: Int32)
        /// A small subtree (a leaf, or a node whose children are all leaves) moved to the end
        /// of another node's children (`addSubview` of a view that has a superview).
        case move(node: Int32, parent: Int32)
        /// Two children of `parent` swap places (`exchangeSubview(at:withSubviewAt:)`).
        case exchange(parent: Int32, i: Int32, j: Int32)
    }

    enum Query {
        case isRelativeAncestor, isRelativeDescendant, groupSiblingsByTags
    }

    var mutation: Mutation
    var query: Query
    var a: Int32
    var b: Int32
}

/// The seeded mutations and queries of `churn`, made once on a plain model of the tree (a
/// parent and an ordered child list per node) and replayed by every implementation, so that
/// all of them make the same changes and answer the same questions.
///
/// The mix, per step: append a leaf 30%, insert a leaf at a random index 20%, remove a leaf
/// 25%, move a small subtree 15%, exchange two siblings 10%. A step whose pick does not fit
/// (a leaf that is a root, a node without siblings, no place outside the subtree) appends a
/// leaf instead; ``counts`` says what was made. Queries go round isRelativeAncestor (random
/// pairs), isRelativeDescendant (half of them against one of the node's ancestors) and
/// groupSiblingsByTags.
struct ChurnScript {
    var steps: [ChurnStep] = []
    /// The stock-catalog type index and the tag of each new leaf, from node number `firstNewNode`.
    var newNodes: [(type: Int, tag: Int)] = []
    var firstNewNode: Int
    /// How many steps made each kind of mutation: append, insert, remove, move, exchange.
    var counts = [0, 0, 0, 0, 0]

    /// The mix's names, index for index with ``counts``.
    static let mutationNames = ["append", "insert", "remove", "move", "exchange"]

    /// A script of `count` steps on the tree whose node `i` has parent `parents[i]` (-1 for a
    /// root) and children `children[i]` in order; `tags` are those new leaves get.
    init(parents: [Int32], children: [[Int32]], count: Int, tags: [Int], seed: UInt64) {
        var model = Model(parents: parents, children: children)
        firstNewNode = parents.count
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(0xC4_0A2))
        let queries: [ChurnStep.Query] = [.isRelativeAncestor, .isRelativeDescendant, .groupSiblingsByTags]
        steps.reserveCapacity(count)
        for i in 0 ..< count {
            let roll = Int.random(in: 0 ..< 100, using: &rng)
            var mutation: ChurnStep.Mutation?
            switch roll {
            case 30 ..< 50:
                let p = model.randomLive(&rng)
                let index = Int32(Int.random(in: 0 ... model.children[Int(p)].count, using: &rng))
                let node = model.newLeaf(under: p, at: Int(index))
                mutation = .insert(node: node, parent: p, index: index)
                counts[1] += 1
            case 50 ..< 75:
                let leaf = model.leaf(below: model.randomLive(&rng))
                if model.parent[Int(leaf)] >= 0 {
                    model.remove(leaf)
                    mutation = .remove(leaf: leaf)
                    counts[2] += 1
                }
            case 75 ..< 90:
                // The leaf's parent if all its children are leaves (and it is not a root), else the leaf.
                let leaf = model.leaf(below: model.randomLive(&rng))
                let up = model.parent[Int(leaf)]
                var moved = leaf
                if up >= 0, model.parent[Int(up)] >= 0, model.children[Int(up)].allSatisfy({ model.children[Int($0)].isEmpty }) {
                    moved = up
                }
                if model.parent[Int(moved)] >= 0 {
                    for _ in 0 ..< 4 {
                        let target = model.randomLive(&rng)
                        if target != moved && model.parent[Int(target)] != moved {
                            model.move(moved, to: target)
                            mutation = .move(node: moved, parent: target)
                            counts[3] += 1
                            break
                        }
                    }
                }
            case 90 ..< 100:
                let x = model.randomLive(&rng)
                let p = model.parent[Int(x)]
                if p >= 0, model.children[Int(p)].count >= 2 {
                    let siblings = model.children[Int(p)].count
                    let i = Int32(Int.random(in: 0 ..< siblings, using: &rng))
                    var j = Int32(Int.random(in: 0 ..< siblings - 1, using: &rng))
                    if j >= i { j += 1 }
                    model.children[Int(p)].swapAt(Int(i), Int(j))
                    mutation = .exchange(parent: p, i: i, j: j)
                    counts[4] += 1
                }
            default:
                break
            }
            if mutation == nil {
                let p = model.randomLive(&rng)
                let node = model.newLeaf(under: p, at: model.children[Int(p)].count)
                mutation = .append(node: node, parent: p)
                counts[0] += 1
            }
            let query = queries[i % queries.count]
            let a = model.randomLive(&rng)
            var b = model.randomLive(&rng)
            if query == .isRelativeDescendant, Bool.random(using: &rng) {
                // One of a's ancestors, at a random height: a fair share of yes answers.
                var up = a
                while model.parent[Int(up)] >= 0 && (up == a || Bool.random(using: &rng)) { up = model.parent[Int(up)] }
                b = up
            }
            // Every branch that made no mutation appended a leaf above.
            guard let made = mutation else { preconditionFailure("churn step without a mutation") }
            steps.append(ChurnStep(mutation: made, query: query, a: a, b: b))
        }
        newNodes = (0 ..< model.parent.count - firstNewNode).map { _ in
            (Int.random(in: 0 ..< StockCatalog.names.count, using: &rng), tags.isEmpty ? 0 : tags[Int.random(in: 0 ..< tags.count, using: &rng)])
        }
    }

    /// The tree as the script sees it, with a list of live nodes for uniform picks.
    private struct Model {
        var parent: [Int32]
        var children: [[Int32]]
        var live: [Int32]
        /// Where each node is in `live` (-1 once removed).
        var place: [Int32]

        init(parents: [Int32], children: [[Int32]]) {
            parent = parents
            self.children = children
            live = Array(0 ..< Int32(parents.count))
            place = live
        }

        func randomLive(_ rng: inout SplitMix64) -> Int32 {
            live[Int.random(in: 0 ..< live.count, using: &rng)]
        }

        /// The first leaf down the first-child path from `x`.
        func leaf(below x: Int32) -> Int32 {
            var x = x
            while let first = children[Int(x)].first { x = first }
            return x
        }

        mutating func newLeaf(under p: Int32, at index: Int) -> Int32 {
            let node = Int32(parent.count)
            parent.append(p)
            children.append([])
            children[Int(p)].insert(node, at: index)
            place.append(Int32(live.count))
            live.append(node)
            return node
        }

        mutating func remove(_ leaf: Int32) {
            let p = Int(parent[Int(leaf)])
            if let k = children[p].firstIndex(of: leaf) { children[p].remove(at: k) }
            parent[Int(leaf)] = -2
            let k = Int(place[Int(leaf)])
            let last = live.removeLast()
            if last != leaf {
                live[k] = last
                place[Int(last)] = Int32(k)
            }
            place[Int(leaf)] = -1
        }

        mutating func move(_ x: Int32, to p: Int32) {
            let old = Int(parent[Int(x)])
            if let k = children[old].firstIndex(of: x) { children[old].remove(at: k) }
            parent[Int(x)] = p
            children[Int(p)].append(x)
        }
    }
}

extension ChurnStep.Mutation {
    /// The mutation's name, as in ``ChurnScript/mutationNames``.
    var name: String {
        switch self {
        case .append: ChurnScript.mutationNames[0]
        case .insert: ChurnScript.mutationNames[1]
        case .remove: ChurnScript.mutationNames[2]
        case .move: ChurnScript.mutationNames[3]
        case .exchange: ChurnScript.mutationNames[4]
        }
    }
}
