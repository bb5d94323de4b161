import RelativeViewCore
import RelativeViewNaive

/// Random inputs of the differential runs.
extension RandomNumberGenerator {
    /// Mostly small tags, so groups are non-trivial, and now and then one that needs the
    /// wide tag table.
    ///
    /// - Complexity: O(1)
    public mutating func tag() -> Int {
        switch Int.random(in: 0 ..< 20, using: &self) {
        case 0: Int.max - Int.random(in: 0 ..< 2, using: &self)
        case 1: Int.min + Int.random(in: 0 ..< 2, using: &self)
        case 2: Int(Int32.min)
        default: Int.random(in: 0 ..< 6, using: &self)
        }
    }

    /// Zero to three tags, as ``tag()`` draws them.
    ///
    /// - Complexity: O(1)
    public mutating func tags() -> [Int] {
        (0 ..< Int.random(in: 0 ... 3, using: &self)).map { _ in tag() }
    }

    /// Zero to three indices into ``StockCatalog/names``.
    ///
    /// - Complexity: O(1)
    public mutating func typeIndices() -> [Int] {
        (0 ..< Int.random(in: 0 ... 3, using: &self)).map { _ in Int.random(in: 0 ..< StockCatalog.names.count, using: &self) }
    }
}

/// Groups with their members replaced by handles, for comparing two cores element by element.
///
/// - Complexity: O(members)
public func handles<Key: Hashable, T>(_ groups: [Key: [T]], _ handle: (T) -> Int) -> [Key: [Int]] {
    groups.mapValues { $0.map(handle) }
}

/// Naive groups by type as handles, with the naive base class's key ("NaiveView") renamed
/// to the name the other cores give it ("View"); the stock subclasses already share names.
///
/// - Complexity: O(members)
public func typeGroups(_ groups: [String: [NaiveView]], _ handle: (NaiveView) -> Int) -> [String: [Int]] {
    Dictionary(uniqueKeysWithValues: groups.map { (StockCatalog.facadeName(ofNaiveKey: $0.key), $0.value.map(handle)) })
}

/// What one conformance step asks both implementations: a query of the table, or one of
/// the tree's other answers.
public enum ConformanceCheck: CaseIterable, Sendable {
    /// A query of ``RelativeQuery``'s table.
    case query(RelativeQuery)
    /// The subviews of a node, recursively.
    case recursiveSubviews
    /// Parent, children, lowest common ancestor, depth and subtree size.
    case structure

    /// Every query of the table, then the other checks.
    ///
    /// - Complexity: O(1)
    public static let allCases: [ConformanceCheck] = RelativeQuery.allCases.map(query) + [.recursiveSubviews, .structure]
}

/// The key function the conformance tests group by: some tags group under a derived key,
/// others are left out (a third of all tags, so that leaving out is exercised; the
/// benchmarks' key is ``RelativeQuery/closureKey(_:)``).
///
/// - Complexity: O(1)
public func conformanceKey(_ tag: Int) -> Int? {
    tag % 3 == 0 ? nil : tag % 5
}

/// The arena core (`ViewTree`) and the naive core driven by the same random operations,
/// every answer compared element by element: the engine of the conformance tests, the
/// differential fuzz target (Fuzz/) and the soak (scripts/soak.sh).
///
/// Each ``step(using:)`` is one mutation (add a node, remove a subtree, move a node to a
/// random place, detach, reorder, exchange children, retag, dissolve a root), then the
/// tree's invariant check (in debug builds of this package, O(n)), then one check of
/// ``ConformanceCheck`` (every query of the table, and the tree's structure) on a random pair, answered by both cores. The randomness may come from a
/// seeded generator or from a fuzzer's bytes.
public struct CoreVsNaive {
    /// The core's forest.
    ///
    /// - Complexity: O(1)
    public private(set) var tree = ViewTree()
    /// Node `h` (its handle) is `ids[h]` in the core and `naive[h]` in the naive core.
    ///
    /// - Complexity: O(1)
    public private(set) var ids: [NodeID] = []
    /// The naive core's nodes, by handle.
    ///
    /// - Complexity: O(1)
    public private(set) var naive: [NaiveView] = []
    private var handleOfID: [NodeID: Int] = [:]
    private var handleOfNaive: [ObjectIdentifier: Int] = [:]
    private let typeIDs = StockCatalog.names.map { TypeRegistry.shared.typeID(named: $0) }
    /// The most nodes a run grows to: past it, adding a node removes a subtree instead.
    ///
    /// - Complexity: O(1)
    public let maximumNodes: Int

    /// Two forests of `roots` roots each; they grow to at most `maximumNodes` nodes.
    ///
    /// - Complexity: O(roots)
    public init(roots: Int = 3, maximumNodes: Int = 400) {
        precondition(roots >= 1, "a run needs a root")
        self.maximumNodes = maximumNodes
        for _ in 0 ..< roots { add(type: 0, tag: 0, under: nil) }
    }

    /// Both cores built from `spec`: node `i` of the spec is handle `i`. A run from it
    /// grows to at most `maximumNodes` nodes (by default the spec's size or 400, whichever
    /// is larger).
    ///
    /// - Complexity: O(n)
    public init(spec: TreeSpec, maximumNodes: Int? = nil) {
        self.maximumNodes = maximumNodes ?? max(spec.count, 400)
        spec.buildCore(into: &tree, ids: &ids, typeIDs: typeIDs)
        spec.buildNaive(into: &naive)
        handleOfID = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        handleOfNaive = Dictionary(uniqueKeysWithValues: naive.enumerated().map { (ObjectIdentifier($1), $0) })
    }

    /// `count` queries on random pairs of the handles in `pool` (all by default), as
    /// ``step(using:)`` makes them, with no mutation; the disagreements. (The naive core's
    /// `recursiveSubviews` is O(subtree × depth): on a deep chain, a pool near its leaf keeps
    /// the naive answers affordable.)
    ///
    /// - Complexity: the queries' own costs.
    public func queries(_ count: Int, among pool: Range<Int>? = nil, using rng: inout some RandomNumberGenerator) -> [String] {
        let pool = pool ?? 0 ..< ids.count
        var issues: [String] = []
        for _ in 0 ..< count {
            let (x, y) = (Int.random(in: pool, using: &rng), Int.random(in: pool, using: &rng))
            issues += query(x, y, using: &rng)
        }
        return issues
    }

    /// Puts `newTree` in the core tree's place: a tree that holds the same nodes under the
    /// same ids (the tree read back from a snapshot of it, say), which the following steps
    /// then mutate and query against the naive core.
    ///
    /// - Complexity: O(n) to check that every id is in `newTree`.
    public mutating func replaceTree(with newTree: ViewTree) {
        precondition(newTree.count == tree.count && ids.allSatisfy(newTree.contains), "the new tree does not hold the run's nodes")
        tree = newTree
    }

    private mutating func add(type k: Int, tag: Int, under parent: Int?) {
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
    private mutating func forget(_ handlesToDrop: Set<Int>) {
        let keep = ids.indices.filter { !handlesToDrop.contains($0) }
        ids = keep.map { ids[$0] }
        naive = keep.map { naive[$0] }
        handleOfID = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        handleOfNaive = Dictionary(uniqueKeysWithValues: naive.enumerated().map { (ObjectIdentifier($1), $0) })
    }

    private func h(_ id: NodeID) -> Int { handleOfID[id] ?? -1 }
    private func h(_ n: NaiveView) -> Int { handleOfNaive[ObjectIdentifier(n)] ?? -1 }

    /// One mutation on both cores, the invariant check, and one query on both; returns the
    /// disagreements (empty when the cores agree), each naming the query and both answers.
    ///
    /// - Complexity: O(n) for the invariant check in debug builds; the query's own cost.
    public mutating func step(using rng: inout some RandomNumberGenerator) -> [String] {
        mutate(using: &rng)
        tree._checkInvariants()
        let live = ids.count
        let (x, y) = (Int.random(in: 0 ..< live, using: &rng), Int.random(in: 0 ..< live, using: &rng))
        return query(x, y, using: &rng)
    }

    private mutating func mutate(using rng: inout some RandomNumberGenerator) {
        let count = ids.count
        let a = Int.random(in: 0 ..< count, using: &rng)
        // One pair in eight is a node with itself: never its own relative.
        let b = Int.random(in: 0 ..< 8, using: &rng) == 0 ? a : Int.random(in: 0 ..< count, using: &rng)
        let (ia, ib, na, nb) = (ids[a], ids[b], naive[a], naive[b])
        switch Int.random(in: 0 ..< 52, using: &rng) {
        case 0 ..< 22 where count < maximumNodes:
            add(type: Int.random(in: 0 ..< StockCatalog.names.count, using: &rng), tag: rng.tag(), under: a)
        case 0 ..< 22:
            // Keep the trees small: remove a subtree that is not one of the first roots.
            guard a >= 3 else { break }
            let dropped = Set([a] + na.recursiveSubviews.map(h))
            tree.removeSubtree(ia)
            na.removeFromSuperview()
            forget(dropped)
        case 22 ..< 34:
            // Move a under b, at a random position, unless that would make a cycle.
            guard a != b, !na.isRelativeAncestor(of: nb) else { break }
            let position = Int.random(in: 0 ..< 4, using: &rng)
            if position == 0 {
                tree.append(ia, to: ib)
                nb.addSubview(na)
            } else if position == 1 {
                let limit = nb.subviews.filter { $0 !== na }.count
                let i = Int.random(in: 0 ... limit, using: &rng)
                tree.insert(ia, into: ib, at: i)
                nb.insertSubview(na, at: i)
            } else if let sibling = nb.subviews.filter({ $0 !== na }).randomElement(using: &rng) {
                let s = ids[h(sibling)]
                if position == 2 {
                    tree.insert(ia, before: s)
                    nb.insertSubview(na, belowSubview: sibling)
                } else {
                    tree.insert(ia, after: s)
                    nb.insertSubview(na, aboveSubview: sibling)
                }
            }
        case 34 ..< 38:
            tree.detach(ia)
            na.removeFromSuperview()
        case 38 ..< 42:
            if Bool.random(using: &rng) {
                tree.makeFirstChild(ia)
                na.superview?.sendSubviewToBack(na)
            } else {
                tree.makeLastChild(ia)
                na.superview?.bringSubviewToFront(na)
            }
        case 42 ..< 45:
            let n = na.subviews.count
            guard n > 0 else { break }
            let (i, j) = (Int.random(in: 0 ..< n, using: &rng), Int.random(in: 0 ..< n, using: &rng))
            tree.exchangeChildren(of: ia, at: i, j)
            na.exchangeSubview(at: i, withSubviewAt: j)
        case 45 ..< 50:
            let tag = rng.tag()
            tree.setTag(tag, of: ia)
            na.tag = tag
        default:
            // A root goes, its children stay as roots (what freeing a root view does).
            guard a >= 3, tree.parent(of: ia) == nil else { break }
            for child in na.subviews { child.removeFromSuperview() }
            tree.removeRootKeepingChildren(ia)
            forget([a])
        }
    }

    private func query(_ a: Int, _ b: Int, using rng: inout some RandomNumberGenerator) -> [String] {
        let (ia, ib, na, nb) = (ids[a], ids[b], naive[a], naive[b])
        let tags = rng.tags()
        let types = rng.typeIndices()
        var issues: [String] = []
        func same<T: Equatable>(_ what: String, _ core: T, _ naive: T) {
            if core != naive { issues.append("\(what) of \(a), \(b) (tags \(tags), types \(types)): core \(core), naive \(naive)") }
        }
        switch ConformanceCheck.allCases.randomElement(using: &rng)! {
        case .query(.convertPoint) where tree.root(of: ia) != tree.root(of: ib):
            // A point converts only within one tree (both cores trap otherwise).
            break
        case .query(let q):
            let core = CoreQuerying(tree, catalogTypeIDs: self.typeIDs)
            let naiveCore = NaiveQuerying()
            same(
                q.rawValue,
                core.answer(q, ia, ib, tags: tags, types: core.typeKeys(types), closureKey: conformanceKey, handle: h),
                naiveCore.answer(q, na, nb, tags: tags, types: naiveCore.typeKeys(types), closureKey: conformanceKey, handle: h))
        case .recursiveSubviews:
            same("recursiveSubviews", tree.recursiveSubviews(of: ia).map(h), na.recursiveSubviews.map(h))
        case .structure:
            same("parent", tree.parent(of: ia).map(h), na.superview.map(h))
            same("children", tree.children(of: ia).map(h), na.subviews.map(h))
            same("lowestCommonAncestor", tree.lowestCommonAncestor(ia, ib).map(h), Self.naiveLCA(na, nb).map(h))
            same("depth", tree.depth(of: ia), Array(sequence(first: na, next: { $0.superview })).count - 1)
            same("subtreeSize", tree.subtreeSize(of: ia), na.recursiveSubviews.count + 1)
        }
        return issues
    }

    /// Gives every node of the core tree alone the tag 77, which ``tag()`` never draws: the
    /// cores then disagree, and a test of this harness checks that ``step(using:)`` says so.
    ///
    /// - Complexity: O(n)
    public mutating func _sabotageForTesting() {
        for id in ids { tree.setTag(77, of: id) }
    }

    private static func naiveLCA(_ a: NaiveView, _ b: NaiveView) -> NaiveView? {
        let above = Set(sequence(first: b, next: { $0.superview }).map(ObjectIdentifier.init))
        return sequence(first: a, next: { $0.superview }).first { above.contains(ObjectIdentifier($0)) }
    }
}
