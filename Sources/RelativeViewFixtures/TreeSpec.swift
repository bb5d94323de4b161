import RelativeView
import RelativeViewNaive

/// The shape of a generated tree.
public enum TreeShape: String, CaseIterable, Sendable {
    /// Node `i` hangs under a uniformly random earlier node (a random recursive tree).
    case random
    /// One path: node `i` hangs under node `i - 1`.
    case chain
    /// One root with every other node as its child.
    case wide
    /// A complete 8-ary tree in breadth-first order.
    case balanced
}

/// A tree described by plain arrays, in creation order (parents before children), so the
/// same tree can be built in every core and compared node for node: node `i` of every
/// build is the `i`-th node created.
public struct TreeSpec: Sendable {
    /// The parent of each node, `-1` for the root(s).
    ///
    /// - Complexity: O(1)
    public var parents: [Int32]
    /// The tag of each node.
    ///
    /// - Complexity: O(1)
    public var tags: [Int]
    /// The ``StockCatalog`` index of each node's class.
    ///
    /// - Complexity: O(1)
    public var types: [UInt8]
    /// Where the tree came from, for reports ("random", "chain", a file path...).
    ///
    /// - Complexity: O(1)
    public var source: String

    /// The number of nodes.
    ///
    /// - Complexity: O(1)
    public var count: Int { parents.count }

    /// A spec from its columns.
    ///
    /// - Complexity: O(1)
    public init(parents: [Int32], tags: [Int], types: [UInt8], source: String) {
        precondition(parents.count == tags.count && tags.count == types.count, "TreeSpec columns differ in length")
        self.parents = parents
        self.tags = tags
        self.types = types
        self.source = source
    }

    /// A generated tree: `nodes` nodes of the given shape, tags uniform in `0 ..< tagRange`,
    /// classes uniform over the stock catalog, all fixed by `seed`.
    ///
    /// - Complexity: O(nodes)
    public init(shape: TreeShape, nodes: Int, seed: UInt64, tagRange: Int = 100) {
        precondition(nodes >= 1, "a tree needs at least one node")
        var rng = SplitMix64(seed: seed)
        var parents = [Int32](repeating: -1, count: nodes)
        for i in 1 ..< max(nodes, 1) {
            switch shape {
            case .random: parents[i] = Int32(Int.random(in: 0 ..< i, using: &rng))
            case .chain: parents[i] = Int32(i - 1)
            case .wide: parents[i] = 0
            case .balanced: parents[i] = Int32((i - 1) / 8)
            }
        }
        let tags = (0 ..< nodes).map { _ in Int.random(in: 0 ..< tagRange, using: &rng) }
        let types = (0 ..< nodes).map { _ in UInt8(Int.random(in: 0 ..< StockCatalog.names.count, using: &rng)) }
        self.init(parents: parents, tags: tags, types: types, source: shape.rawValue)
    }

    /// The depth of every node (the root's is 0).
    ///
    /// - Complexity: O(count)
    public func depths() -> [Int32] {
        var depth = [Int32](repeating: 0, count: count)
        for i in 0 ..< count where parents[i] >= 0 { depth[i] = depth[Int(parents[i])] + 1 }
        return depth
    }

    // MARK: Building

    /// Builds the tree in the arena core; node `i` is `ids[i]`.
    ///
    /// - Complexity: O(count)
    public func buildCore(into tree: inout ViewTree, ids: inout [NodeID], typeIDs: [TypeID]) {
        for i in 0 ..< count {
            let p = Int(parents[i])
            let type = typeIDs[Int(types[i])]
            ids.append(p < 0 ? tree.makeNode(tag: tags[i], type: type) : tree.appendChild(tag: tags[i], type: type, to: ids[p]))
        }
    }

    /// Builds the tree of facade views into `views` (node `i` is `views[i]`).
    ///
    /// - Complexity: O(count) amortized.
    public func buildFacade(into views: inout [View]) {
        for i in 0 ..< count {
            let v = StockCatalog.makeView(Int(types[i]))
            v.tag = tags[i]
            if parents[i] >= 0 { views[Int(parents[i])].addSubview(v) }
            views.append(v)
        }
    }

    /// Builds the tree of naive views into `views` (node `i` is `views[i]`).
    ///
    /// - Complexity: O(count × depth): the naive `addSubview` walks the new superview's
    ///   chain to the root (the original's cycle check), so a chain is quadratic.
    public func buildNaive(into views: inout [NaiveView]) {
        _ = buildNaive(into: &views, continueWhile: { true })
    }

    /// Builds the tree of naive views into `views`, asking `shouldContinue` every 256 nodes
    /// and stopping, with the nodes built so far, when it answers `false`.
    ///
    /// The benchmark gives the naive build a time budget this way: a deep tree can take the
    /// naive core hours.
    ///
    /// - Parameter shouldContinue: Whether to go on; called once per 256 nodes.
    /// - Returns: Whether every node was built.
    /// - Complexity: O(count × depth), as ``buildNaive(into:)``.
    public func buildNaive(into views: inout [NaiveView], continueWhile shouldContinue: () -> Bool) -> Bool {
        for i in 0 ..< count {
            if i & 255 == 0 && i > 0 && !shouldContinue() { return false }
            let v = StockCatalog.makeNaive(Int(types[i]))
            v.tag = tags[i]
            if parents[i] >= 0 { views[Int(parents[i])].addSubview(v) }
            views.append(v)
        }
        return true
    }
}
