import RelativeView
import RelativeViewNaive

extension Relation {
    /// The relation's name for one node, as the API's method names spell it ("Ancestor").
    ///
    /// - Complexity: O(1)
    public var singular: String {
        switch self {
        case .ancestors: "Ancestor"
        case .descendants: "Descendant"
        case .siblings: "Sibling"
        case .children: "Child"
        case .followingSiblings: "FollowingSibling"
        }
    }

    /// The relation's name for several nodes, as the API's method names spell it ("Ancestors").
    ///
    /// - Complexity: O(1)
    public var plural: String { self == .children ? "Children" : singular + "s" }

    /// The one of five answers that belongs to this relation: how an adaptor picks a method
    /// of the relative-view API by relation, one line a form. Always inlined, so that the
    /// pick is a switch and the answer a direct call.
    ///
    /// - Complexity: that of the answer picked.
    @inlinable @inline(__always)
    public func pick<Answer>(
        _ ancestors: @autoclosure () -> Answer, _ descendants: @autoclosure () -> Answer,
        _ siblings: @autoclosure () -> Answer, _ children: @autoclosure () -> Answer,
        _ followingSiblings: @autoclosure () -> Answer
    ) -> Answer {
        switch self {
        case .ancestors: ancestors()
        case .descendants: descendants()
        case .siblings: siblings()
        case .children: children()
        case .followingSiblings: followingSiblings()
        }
    }
}

/// What a search or a grouping keys the nodes by.
public enum QueryKey: String, CaseIterable, Hashable, Sendable {
    /// A node's tag, among the asked tags.
    case tags
    /// A node's exact type, among the asked types.
    case types
    /// The key a closure gives a node (`nil` leaves it out).
    case closure

    /// The key's part of a method name ("ByTags").
    ///
    /// - Complexity: O(1)
    public var suffix: String {
        switch self {
        case .tags: "ByTags"
        case .types: "ByTypes"
        case .closure: "ByClosure"
        }
    }
}

/// One query of the relative-view API: the table of queries that the benchmark CLI, the
/// `Benchmarks/` suite and the conformance tests all enumerate (``allCases``), each asked of
/// every implementation through ``RelativeQuerying``.
///
/// A query is a form (a yes-or-no question, a search, a grouping) of a ``Relation`` with a
/// ``QueryKey``; its ``rawValue`` is the name reports and scripts use
/// (`groupDescendantsByTags`).
public enum RelativeQuery: Hashable, Sendable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// Whether one node is a relative of the other (`isRelativeAncestor`: `a` is an
    /// ancestor of `b`).
    case isRelative(Relation)
    /// The first relative of a node that the key matches (the nearest ancestor; the first
    /// descendant in pre-order).
    case findFirst(Relation, by: QueryKey)
    /// A node's relatives grouped by the key.
    case group(Relation, by: QueryKey)
    /// The nearest common ancestor of two nodes (each counting as its own ancestor).
    case commonAncestor
    /// A point converted between the coordinate spaces of two views.
    case convertPoint

    /// The table, in the order reports list it.
    ///
    /// - Complexity: O(1)
    public static let allCases: [RelativeQuery] =
        Relation.allCases.map(isRelative)
        + Relation.allCases.flatMap { r in QueryKey.allCases.map { findFirst(r, by: $0) } }
        + Relation.allCases.flatMap { r in QueryKey.allCases.map { group(r, by: $0) } }
        + [.commonAncestor, .convertPoint]

    /// The query named `rawValue`, or `nil` if the table has none of that name.
    ///
    /// - Complexity: O(number of queries)
    public init?(rawValue: String) {
        guard let query = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = query
    }

    /// The name reports and scripts use: the API's method name and the key
    /// (`isRelativeAncestor`, `findFirstAncestorByTags`, `groupSiblingsByTypes`).
    ///
    /// - Complexity: O(1)
    public var rawValue: String {
        switch self {
        case .isRelative(let r): "isRelative" + r.singular
        case .findFirst(let r, let key): "findFirst" + r.singular + key.suffix
        case .group(let r, let key): "group" + r.plural + key.suffix
        case .commonAncestor: "commonAncestor"
        case .convertPoint: "convertPoint"
        }
    }

    /// ``rawValue``.
    ///
    /// - Complexity: O(1)
    public var description: String { rawValue }

    /// Whether one query visits the whole tree: it is asked of the root, and few are asked.
    ///
    /// - Complexity: O(1)
    public var isWholeTree: Bool {
        if case .group(.descendants, _) = self { return true }
        return false
    }

    /// Whether the naive core answers one query by walking a whole subtree (a descendant
    /// test searches the candidate ancestor's subtree; a descendant search walks until its
    /// match), so that few such queries are asked of it at a time.
    ///
    /// - Complexity: O(1)
    public var naiveWalksASubtree: Bool {
        switch self {
        case .isRelative(let r), .findFirst(let r, _), .group(let r, _): r == .descendants
        case .commonAncestor, .convertPoint: false
        }
    }

    /// Whether a query is about two nodes (`b` of ``inputs(_:count:)`` is used).
    ///
    /// - Complexity: O(1)
    public var isPairwise: Bool {
        switch self {
        case .isRelative, .commonAncestor, .convertPoint: true
        case .findFirst, .group: false
        }
    }

    /// Whether the answer is nodes found (a search or a grouping), as opposed to a yes or
    /// no or a point.
    ///
    /// - Complexity: O(1)
    public var findsNodes: Bool { !isPairwise }

    /// The nodes `count` queries are asked about, as node numbers: query `i` is about `a[i]`
    /// (and `b[i]` when ``isPairwise``; `b` is empty otherwise). A whole-tree query is asked
    /// of the root whatever `a` holds.
    ///
    /// - Complexity: O(count), plus O(nodes) for the pairs of the descendant and sibling queries.
    public func inputs(_ q: QueryInputs, count: Int) -> (a: [Int32], b: [Int32]) {
        switch self {
        case .isRelative(.ancestors): return (q.randomNodes(count, salt: 1), q.randomNodes(count, salt: 2))
        case .isRelative(.descendants):
            let (descendants, ancestors) = q.descendantPairs(count)
            return (descendants, ancestors)
        case .isRelative(.siblings), .isRelative(.followingSiblings):
            let (a, b) = q.siblingPairs(count)
            return (a, b)
        case .isRelative(.children):
            let (a, b) = q.childPairs(count)
            return (a, b)
        case .commonAncestor: return (q.randomNodes(count, salt: 23), q.randomNodes(count, salt: 24))
        case .convertPoint: return (q.randomNodes(count, salt: 21), q.randomNodes(count, salt: 22))
        case .findFirst, .group: return (q.randomNodes(count, salt: 5), [])
        }
    }

    /// The key `groupDescendantsByClosure` groups by: every tenth tag value, the others left out.
    ///
    /// - Complexity: O(1)
    @inlinable
    public static func closureKey(_ tag: Int) -> Int? {
        tag % 10 == 0 ? tag / 10 : nil
    }

    /// The test the searches by closure make: a tag that ``closureKey(_:)`` keys.
    ///
    /// - Complexity: O(1)
    @inlinable
    public static func closureMatches(_ tag: Int) -> Bool {
        closureKey(tag) != nil
    }
}

/// The questions of ``RelativeQuery`` asked of one implementation (the naive core, the core,
/// the facade), one relation at a time: the one place per implementation where a relation
/// meets its methods, each switch exhaustive. Generic code over it (the CLI's measurements,
/// the `Benchmarks/` suite, the conformance tests) is written once for all three.
///
/// The view classes adopt ``RelativeViewAPI`` and share one adaptor (``ViewQuerying``); the
/// core has an adaptor of its own, not a protocol its nodes adopt: its nodes are `NodeID`s,
/// which need their tree, and a node that carried its tree would retain and release it on
/// every query.
public protocol RelativeQuerying {
    /// A node of this implementation.
    ///
    /// - Complexity: O(1) to pass around.
    associatedtype Node
    /// What this implementation's groupings and searches by type take.
    ///
    /// - Complexity: O(1) to pass around.
    associatedtype TypeKeys

    /// The keys for the stock types at `catalogIndices` (``StockCatalog``), made once,
    /// outside any timing.
    ///
    /// - Complexity: O(catalogIndices.count)
    func typeKeys(_ catalogIndices: [Int]) -> TypeKeys
    /// The tag of `node`.
    ///
    /// - Complexity: O(1)
    func tag(of node: Node) -> Int
    /// Whether `a` is a relative of `b` (`.ancestors`: `a` is an ancestor of `b`).
    ///
    /// - Complexity: the implementation's.
    func isRelative(_ relation: Relation, _ a: Node, of b: Node) -> Bool
    /// The first relative of `node` whose tag is one of `tags`.
    ///
    /// - Complexity: the implementation's.
    func findFirst(_ relation: Relation, of node: Node, byTags tags: [Int]) -> Node?
    /// The first relative of `node` whose type is one of `types`.
    ///
    /// - Complexity: the implementation's.
    func findFirst(_ relation: Relation, of node: Node, byTypes types: TypeKeys) -> Node?
    /// The first relative of `node` that `matches`.
    ///
    /// - Complexity: the implementation's.
    func findFirst(_ relation: Relation, of node: Node, where matches: (Node) -> Bool) -> Node?
    /// The relatives of `node` whose tag is one of `tags`, by tag.
    ///
    /// - Complexity: the implementation's.
    func group(_ relation: Relation, of node: Node, byTags tags: [Int]) -> [Int: [Node]]
    /// The relatives of `node` whose type is one of `types`, by type name (as
    /// ``canonicalTypeName(_:)`` makes it the same for every implementation).
    ///
    /// - Complexity: the implementation's.
    func group(_ relation: Relation, of node: Node, byTypes types: TypeKeys) -> [String: [Node]]
    /// The relatives of `node` by the key `key` gives each.
    ///
    /// - Complexity: the implementation's.
    func group<Key: Hashable>(_ relation: Relation, of node: Node, by key: (Node) -> Key?) -> [Key: [Node]]
    /// The first relative of `node` that ``RelativeQuery/closureKey(_:)`` keys by its tag,
    /// asked with a closure literal written here, in the adaptor's own code, as a caller
    /// writes one: a closure that generic code passes on goes through a thunk on every
    /// node, and cost the whole-tree grouping by closure 1.9x its time.
    ///
    /// - Complexity: the implementation's.
    func findFirstByClosureKey(_ relation: Relation, of node: Node) -> Node?
    /// The relatives of `node` grouped by ``RelativeQuery/closureKey(_:)`` of their tags,
    /// with a closure literal (see ``findFirstByClosureKey(_:of:)``).
    ///
    /// - Complexity: the implementation's.
    func groupByClosureKey(_ relation: Relation, of node: Node) -> [Int: [Node]]
    /// The nearest common ancestor of `a` and `b` (each its own ancestor), or `nil`.
    ///
    /// - Complexity: the implementation's.
    func commonAncestor(of a: Node, _ b: Node) -> Node?
    /// `point` of `a`'s space in `b`'s.
    ///
    /// - Complexity: the implementation's.
    func convert(_ point: SIMD2<Double>, from a: Node, to b: Node) -> SIMD2<Double>
    /// A grouping's type key as the facade names it (the naive core names its base class
    /// "NaiveView"; the others "View").
    ///
    /// - Complexity: O(1)
    static func canonicalTypeName(_ key: String) -> String
}

extension RelativeQuerying {
    /// The key unchanged.
    ///
    /// - Complexity: O(1)
    @inlinable
    public static func canonicalTypeName(_ key: String) -> String { key }
}

/// The core's questions: `ViewTree`'s methods on `NodeID`s.
public struct CoreQuerying: RelativeQuerying {
    /// The tree asked.
    ///
    /// - Complexity: O(1)
    public let tree: ViewTree
    /// The type id that stands for each stock class (``StockCatalog``), index for index.
    ///
    /// - Complexity: O(1)
    public let catalogTypeIDs: [TypeID]

    /// Asks `tree`, whose nodes have the types `catalogTypeIDs` gives the stock classes
    /// (their ids in the shared registry unless given).
    ///
    /// - Complexity: O(number of stock classes)
    public init(_ tree: ViewTree, catalogTypeIDs: [TypeID] = StockCatalog.typeIDs()) {
        self.tree = tree
        self.catalogTypeIDs = catalogTypeIDs
    }

    /// The type ids to match and the names to key them by.
    public struct TypeKeys: Sendable {
        /// The type ids, for the searches.
        ///
        /// - Complexity: O(1)
        public let ids: [TypeID]
        /// The names keyed by type id, for the groupings (the facade's names).
        ///
        /// - Complexity: O(1)
        public let names: [TypeID: String]
    }

    /// The stock types' ids (``catalogTypeIDs``) and their facade names.
    ///
    /// - Complexity: O(catalogIndices.count)
    public func typeKeys(_ catalogIndices: [Int]) -> TypeKeys {
        let all = catalogTypeIDs
        let ids = catalogIndices.map { all[$0] }
        return TypeKeys(ids: ids, names: Dictionary(catalogIndices.map { (all[$0], StockCatalog.names[$0]) }, uniquingKeysWith: { a, _ in a }))
    }

    /// `tree.tag(of:)`.
    ///
    /// - Complexity: O(1)
    @inlinable public func tag(of node: NodeID) -> Int { tree.tag(of: node) }

    /// `isAncestor`, `isDescendant` or `isSibling`.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func isRelative(_ relation: Relation, _ a: NodeID, of b: NodeID) -> Bool {
        tree.isRelative(a, relation, of: b)
    }

    /// `first(.ancestors, of:withTags:)` and its kin.
    ///
    /// - Complexity: O(relatives visited + tags.count)
    @inlinable @inline(__always)
    public func findFirst(_ relation: Relation, of node: NodeID, byTags tags: [Int]) -> NodeID? {
        tree.first(relation, of: node, withTags: tags)
    }

    /// `first(.ancestors, of:withTypes:)` and its kin.
    ///
    /// - Complexity: O(relatives visited + types.count)
    @inlinable @inline(__always)
    public func findFirst(_ relation: Relation, of node: NodeID, byTypes types: TypeKeys) -> NodeID? {
        tree.first(relation, of: node, withTypes: types.ids)
    }

    /// `first(.ancestors, of:where:)` and its kin.
    ///
    /// - Complexity: O(relatives visited) calls of `matches`.
    @inlinable @inline(__always)
    public func findFirst(_ relation: Relation, of node: NodeID, where matches: (NodeID) -> Bool) -> NodeID? {
        tree.first(relation, of: node, where: matches)
    }

    /// `group(.ancestors, of:byTags:)` and its kin.
    ///
    /// - Complexity: O(relatives + tags.count)
    @inlinable @inline(__always)
    public func group(_ relation: Relation, of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        tree.group(relation, of: node, byTags: tags)
    }

    /// `group(.ancestors, of:keyingTypes:)` and its kin, keyed by the types' names.
    ///
    /// - Complexity: O(relatives + types)
    @inlinable @inline(__always)
    public func group(_ relation: Relation, of node: NodeID, byTypes types: TypeKeys) -> [String: [NodeID]] {
        tree.group(relation, of: node, keyingTypes: types.names)
    }

    /// `group(.ancestors, of:by:)` and its kin. Always inlined, as the searches by closure are,
    /// so that a closure literal of the caller's is inlined into the core's walk.
    ///
    /// - Complexity: O(relatives) calls of `key`.
    @inlinable @inline(__always)
    public func group<Key: Hashable>(_ relation: Relation, of node: NodeID, by key: (NodeID) -> Key?) -> [Key: [NodeID]] {
        tree.group(relation, of: node, by: key)
    }

    /// ``findFirst(_:of:where:)`` with ``RelativeQuery/closureMatches(_:)`` of the tag, a literal.
    ///
    /// - Complexity: O(relatives visited)
    @inlinable
    public func findFirstByClosureKey(_ relation: Relation, of node: NodeID) -> NodeID? {
        let tree = self.tree
        return findFirst(relation, of: node) { RelativeQuery.closureMatches(tree.tag(of: $0)) }
    }

    /// ``group(_:of:by:)`` with ``RelativeQuery/closureKey(_:)`` of the tag, a literal.
    ///
    /// - Complexity: O(relatives)
    @inlinable
    public func groupByClosureKey(_ relation: Relation, of node: NodeID) -> [Int: [NodeID]] {
        let tree = self.tree
        return group(relation, of: node) { RelativeQuery.closureKey(tree.tag(of: $0)) }
    }

    /// `tree.lowestCommonAncestor(_:_:)`.
    ///
    /// - Complexity: O(depth of `a`)
    @inlinable @inline(__always)
    public func commonAncestor(of a: NodeID, _ b: NodeID) -> NodeID? { tree.lowestCommonAncestor(a, b) }

    /// `tree.convert(_:from:to:)`.
    ///
    /// - Complexity: O(depth of both)
    @inlinable @inline(__always)
    public func convert(_ point: SIMD2<Double>, from a: NodeID, to b: NodeID) -> SIMD2<Double> {
        tree.convert(point, from: a, to: b)
    }
}

/// The relative-view API of a view class, as `View` (the facade) and `NaiveView` (the naive
/// core) both declare it, method for method: what ``ViewQuerying`` asks.
public protocol RelativeViewAPI: AnyObject {
    /// The class whose views the answers are (`View`, `NaiveView`).
    ///
    /// - Complexity: O(1) to pass around.
    associatedtype Relative: AnyObject

    /// The view's tag.
    ///
    /// - Complexity: O(1)
    var tag: Int { get }
    /// Whether this view is a proper ancestor of `view`.
    ///
    /// - Complexity: the implementation's.
    func isRelativeAncestor(of view: Relative) -> Bool
    /// Whether this view is a proper descendant of `view`.
    ///
    /// - Complexity: the implementation's.
    func isRelativeDescendant(of view: Relative) -> Bool
    /// Whether this view and `view` are distinct subviews of one superview.
    ///
    /// - Complexity: the implementation's.
    func isRelativeSibling(of view: Relative) -> Bool
    /// Whether this view is a subview of `view`.
    ///
    /// - Complexity: the implementation's.
    func isRelativeChild(of view: Relative) -> Bool
    /// Whether this view is a subview of the superview of `view` after `view`.
    ///
    /// - Complexity: the implementation's.
    func isRelativeFollowingSibling(of view: Relative) -> Bool
    /// The nearest ancestor with one of `tags`.
    ///
    /// - Complexity: the implementation's.
    func findFirstAncestor(by tags: [Int]) -> Relative?
    /// The first descendant with one of `tags`.
    ///
    /// - Complexity: the implementation's.
    func findFirstDescendant(by tags: [Int]) -> Relative?
    /// The first sibling with one of `tags`.
    ///
    /// - Complexity: the implementation's.
    func findFirstSibling(by tags: [Int]) -> Relative?
    /// The first subview with one of `tags`.
    ///
    /// - Complexity: the implementation's.
    func findFirstChild(by tags: [Int]) -> Relative?
    /// The first following sibling with one of `tags`.
    ///
    /// - Complexity: the implementation's.
    func findFirstFollowingSibling(by tags: [Int]) -> Relative?
    /// The nearest ancestor of one of `viewTypes` (exactly).
    ///
    /// - Complexity: the implementation's.
    func findFirstAncestor(by viewTypes: [Relative.Type]) -> Relative?
    /// The first descendant of one of `viewTypes` (exactly).
    ///
    /// - Complexity: the implementation's.
    func findFirstDescendant(by viewTypes: [Relative.Type]) -> Relative?
    /// The first sibling of one of `viewTypes` (exactly).
    ///
    /// - Complexity: the implementation's.
    func findFirstSibling(by viewTypes: [Relative.Type]) -> Relative?
    /// The first subview of one of `viewTypes` (exactly).
    ///
    /// - Complexity: the implementation's.
    func findFirstChild(by viewTypes: [Relative.Type]) -> Relative?
    /// The first following sibling of one of `viewTypes` (exactly).
    ///
    /// - Complexity: the implementation's.
    func findFirstFollowingSibling(by viewTypes: [Relative.Type]) -> Relative?
    /// The nearest ancestor that `matches`.
    ///
    /// - Complexity: the implementation's.
    func findFirstAncestor(by matches: (Relative) -> Bool) -> Relative?
    /// The first descendant that `matches`.
    ///
    /// - Complexity: the implementation's.
    func findFirstDescendant(by matches: (Relative) -> Bool) -> Relative?
    /// The first sibling that `matches`.
    ///
    /// - Complexity: the implementation's.
    func findFirstSibling(by matches: (Relative) -> Bool) -> Relative?
    /// The first subview that `matches`.
    ///
    /// - Complexity: the implementation's.
    func findFirstChild(by matches: (Relative) -> Bool) -> Relative?
    /// The first following sibling that `matches`.
    ///
    /// - Complexity: the implementation's.
    func findFirstFollowingSibling(by matches: (Relative) -> Bool) -> Relative?
    /// The ancestors with one of `tags`, by tag.
    ///
    /// - Complexity: the implementation's.
    func groupAncestors(by tags: [Int]) -> [Int: [Relative]]
    /// The descendants with one of `tags`, by tag.
    ///
    /// - Complexity: the implementation's.
    func groupDescendants(by tags: [Int]) -> [Int: [Relative]]
    /// The siblings with one of `tags`, by tag.
    ///
    /// - Complexity: the implementation's.
    func groupSiblings(by tags: [Int]) -> [Int: [Relative]]
    /// The subviews with one of `tags`, by tag.
    ///
    /// - Complexity: the implementation's.
    func groupChildren(by tags: [Int]) -> [Int: [Relative]]
    /// The following siblings with one of `tags`, by tag.
    ///
    /// - Complexity: the implementation's.
    func groupFollowingSiblings(by tags: [Int]) -> [Int: [Relative]]
    /// The ancestors of one of `viewTypes`, by type name.
    ///
    /// - Complexity: the implementation's.
    func groupAncestors(by viewTypes: [Relative.Type]) -> [String: [Relative]]
    /// The descendants of one of `viewTypes`, by type name.
    ///
    /// - Complexity: the implementation's.
    func groupDescendants(by viewTypes: [Relative.Type]) -> [String: [Relative]]
    /// The siblings of one of `viewTypes`, by type name.
    ///
    /// - Complexity: the implementation's.
    func groupSiblings(by viewTypes: [Relative.Type]) -> [String: [Relative]]
    /// The subviews of one of `viewTypes`, by type name.
    ///
    /// - Complexity: the implementation's.
    func groupChildren(by viewTypes: [Relative.Type]) -> [String: [Relative]]
    /// The following siblings of one of `viewTypes`, by type name.
    ///
    /// - Complexity: the implementation's.
    func groupFollowingSiblings(by viewTypes: [Relative.Type]) -> [String: [Relative]]
    /// The ancestors by the key `groupKey` gives each.
    ///
    /// - Complexity: the implementation's.
    func groupAncestors<Key: Hashable>(by groupKey: (Relative) -> Key?) -> [Key: [Relative]]
    /// The descendants by the key `groupKey` gives each.
    ///
    /// - Complexity: the implementation's.
    func groupDescendants<Key: Hashable>(by groupKey: (Relative) -> Key?) -> [Key: [Relative]]
    /// The siblings by the key `groupKey` gives each.
    ///
    /// - Complexity: the implementation's.
    func groupSiblings<Key: Hashable>(by groupKey: (Relative) -> Key?) -> [Key: [Relative]]
    /// The subviews by the key `groupKey` gives each.
    ///
    /// - Complexity: the implementation's.
    func groupChildren<Key: Hashable>(by groupKey: (Relative) -> Key?) -> [Key: [Relative]]
    /// The following siblings by the key `groupKey` gives each.
    ///
    /// - Complexity: the implementation's.
    func groupFollowingSiblings<Key: Hashable>(by groupKey: (Relative) -> Key?) -> [Key: [Relative]]
    /// The nearest view that is this view or an ancestor and `view` or an ancestor.
    ///
    /// - Complexity: the implementation's.
    func commonAncestor(with view: Relative) -> Relative?
    /// `point` of this view's space in `view`'s.
    ///
    /// - Complexity: the implementation's.
    func convert(_ point: CGPoint, to view: Relative?) -> CGPoint
}

extension View: RelativeViewAPI {}
extension NaiveView: RelativeViewAPI {}

/// The questions of a view class (the facade's `View`, the naive core's `NaiveView`): its
/// relative-view methods.
public struct ViewQuerying<V: RelativeViewAPI>: RelativeQuerying where V.Relative == V {
    /// The stock classes of the implementation, index for index with ``StockCatalog/names``.
    ///
    /// - Complexity: O(1)
    public let catalog: [V.Type]

    /// Asks views of the class `V`, whose stock classes are `catalog`.
    ///
    /// - Complexity: O(1)
    public init(catalog: [V.Type]) { self.catalog = catalog }

    /// The stock classes at `catalogIndices`.
    ///
    /// - Complexity: O(catalogIndices.count)
    public func typeKeys(_ catalogIndices: [Int]) -> [V.Type] { catalogIndices.map { catalog[$0] } }

    /// `node.tag`.
    ///
    /// - Complexity: O(1)
    @inlinable public func tag(of node: V) -> Int { node.tag }

    /// `isRelativeAncestor(of:)` and its kin.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func isRelative(_ relation: Relation, _ a: V, of b: V) -> Bool {
        relation.pick(a.isRelativeAncestor(of: b), a.isRelativeDescendant(of: b), a.isRelativeSibling(of: b), a.isRelativeChild(of: b), a.isRelativeFollowingSibling(of: b))
    }

    /// `findFirstAncestor(by:)` and its kin, by tags.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func findFirst(_ relation: Relation, of node: V, byTags tags: [Int]) -> V? {
        relation.pick(node.findFirstAncestor(by: tags), node.findFirstDescendant(by: tags), node.findFirstSibling(by: tags), node.findFirstChild(by: tags), node.findFirstFollowingSibling(by: tags))
    }

    /// `findFirstAncestor(by:)` and its kin, by class.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func findFirst(_ relation: Relation, of node: V, byTypes types: [V.Type]) -> V? {
        relation.pick(node.findFirstAncestor(by: types), node.findFirstDescendant(by: types), node.findFirstSibling(by: types), node.findFirstChild(by: types), node.findFirstFollowingSibling(by: types))
    }

    /// `findFirstAncestor(by:)` and its kin, by closure.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func findFirst(_ relation: Relation, of node: V, where matches: (V) -> Bool) -> V? {
        relation.pick(node.findFirstAncestor(by: matches), node.findFirstDescendant(by: matches), node.findFirstSibling(by: matches), node.findFirstChild(by: matches), node.findFirstFollowingSibling(by: matches))
    }

    /// `groupAncestors(by:)` and its kin, by tags.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func group(_ relation: Relation, of node: V, byTags tags: [Int]) -> [Int: [V]] {
        relation.pick(node.groupAncestors(by: tags), node.groupDescendants(by: tags), node.groupSiblings(by: tags), node.groupChildren(by: tags), node.groupFollowingSiblings(by: tags))
    }

    /// `groupAncestors(by:)` and its kin, by class (the naive base class's key is "NaiveView").
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func group(_ relation: Relation, of node: V, byTypes types: [V.Type]) -> [String: [V]] {
        relation.pick(node.groupAncestors(by: types), node.groupDescendants(by: types), node.groupSiblings(by: types), node.groupChildren(by: types), node.groupFollowingSiblings(by: types))
    }

    /// `groupAncestors(by:)` and its kin, by closure.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func group<Key: Hashable>(_ relation: Relation, of node: V, by key: (V) -> Key?) -> [Key: [V]] {
        relation.pick(node.groupAncestors(by: key), node.groupDescendants(by: key), node.groupSiblings(by: key), node.groupChildren(by: key), node.groupFollowingSiblings(by: key))
    }

    /// ``findFirst(_:of:where:)`` with ``RelativeQuery/closureMatches(_:)`` of the tag, a literal.
    ///
    /// - Complexity: the implementation's.
    @inlinable
    public func findFirstByClosureKey(_ relation: Relation, of node: V) -> V? {
        findFirst(relation, of: node) { RelativeQuery.closureMatches($0.tag) }
    }

    /// ``group(_:of:by:)`` with ``RelativeQuery/closureKey(_:)`` of the tag, a literal.
    ///
    /// - Complexity: the implementation's.
    @inlinable
    public func groupByClosureKey(_ relation: Relation, of node: V) -> [Int: [V]] {
        group(relation, of: node) { RelativeQuery.closureKey($0.tag) }
    }

    /// `a.commonAncestor(with:)`.
    ///
    /// - Complexity: the implementation's.
    @inlinable @inline(__always)
    public func commonAncestor(of a: V, _ b: V) -> V? { a.commonAncestor(with: b) }

    /// `a.convert(_:to:)`.
    ///
    /// - Complexity: O(depth of both)
    @inlinable @inline(__always)
    public func convert(_ point: SIMD2<Double>, from a: V, to b: V) -> SIMD2<Double> {
        let q = a.convert(CGPoint(x: point.x, y: point.y), to: b)
        return SIMD2(Double(q.x), Double(q.y))
    }

    /// The facade's name for a grouping's type key ("View" for the naive base class's
    /// "NaiveView"; the stock subclasses share names).
    ///
    /// - Complexity: O(1)
    @inlinable
    public static func canonicalTypeName(_ key: String) -> String { StockCatalog.facadeName(ofNaiveKey: key) }
}

/// The facade's questions: `View`'s methods.
public typealias FacadeQuerying = ViewQuerying<View>
/// The naive core's questions: `NaiveView`'s methods, the original's pointer walks.
public typealias NaiveQuerying = ViewQuerying<NaiveView>

extension ViewQuerying where V == View {
    /// Asks facade views.
    ///
    /// - Complexity: O(1)
    public init() { self.init(catalog: StockCatalog.views) }
}

extension ViewQuerying where V == NaiveView {
    /// Asks naive views.
    ///
    /// - Complexity: O(1)
    public init() { self.init(catalog: StockCatalog.naiveViews) }
}

/// An implementation's answer to one ``RelativeQuery`` as it gave it: its own nodes, by
/// the shape of the answer. What ``RelativeQuerying/ask(_:_:_:tags:types:closureKey:)``
/// returns, for a caller to time, digest or number.
public enum QueryResult<Node> {
    /// A yes or no.
    case yes(Bool)
    /// The node found, or `nil`.
    case node(Node?)
    /// Groups keyed by tag or by a closure's key.
    case groups([Int: [Node]])
    /// Groups keyed by type name (each implementation's names).
    case named([String: [Node]])
    /// A converted point.
    case point(SIMD2<Double>)

    /// How many nodes the answer holds; `nil` for an answer that is not nodes (a yes or
    /// no, a point).
    ///
    /// - Complexity: O(number of groups)
    @inlinable
    public var nodeCount: Int? {
        switch self {
        case .yes, .point: nil
        case .node(let x): x == nil ? 0 : 1
        case .groups(let g): g.values.reduce(0) { $0 + $1.count }
        case .named(let g): g.values.reduce(0) { $0 + $1.count }
        }
    }
}

/// A loop that asks one query again and again (a timing, a benchmark): handed the question
/// as a closure, it runs it where it likes. ``RelativeQuerying/asking(_:tags:types:closureKey:in:)``
/// hands it the closure of the query asked, so that each query gets a loop of its own,
/// specialized, with no choice of query inside it.
public protocol QueryLoop<Node> {
    /// The nodes the question is about.
    ///
    /// - Complexity: O(1) to pass around.
    associatedtype Node
    /// What the loop gives back.
    ///
    /// - Complexity: O(1) to pass around.
    associatedtype Output
    /// Runs the loop, asking `ask` about `a` (and `b`, for a question about two nodes).
    ///
    /// - Complexity: the loop's.
    func run(_ ask: (_ a: Node, _ b: Node) -> QueryResult<Node>) -> Output
}

extension RelativeQuerying {
    /// Runs `loop` with the question `query` asks of this implementation: the one place
    /// where a query of the table meets the adaptor's methods. The CLI's timings, the
    /// `Benchmarks/` suite and the conformance tests (through ``ask(_:_:_:tags:types:closureKey:)``)
    /// all ask through it, so a query of the table is written here once.
    ///
    /// The searches and groupings by closure use ``RelativeQuery/closureKey(_:)`` through
    /// the adaptor's closure literals (``findFirstByClosureKey(_:of:)``) when `closureKey`
    /// is `nil`, and `closureKey` of a node's tag otherwise. Always inlined, so that the
    /// choice of query is made once, outside `loop`, and the question is inlined into it.
    ///
    /// - Complexity: the loop's, each question at the query's own cost.
    @inlinable @inline(__always)
    public func asking<Loop: QueryLoop<Node>>(
        _ query: RelativeQuery, tags: [Int], types: TypeKeys, closureKey: ((Int) -> Int?)? = nil, in loop: Loop
    ) -> Loop.Output {
        switch query {
        case .isRelative(let r): return loop.run { a, b in .yes(isRelative(r, a, of: b)) }
        case .findFirst(let r, .tags): return loop.run { a, _ in .node(findFirst(r, of: a, byTags: tags)) }
        case .findFirst(let r, .types): return loop.run { a, _ in .node(findFirst(r, of: a, byTypes: types)) }
        case .findFirst(let r, .closure):
            guard let closureKey else { return loop.run { a, _ in .node(findFirstByClosureKey(r, of: a)) } }
            return loop.run { a, _ in .node(findFirst(r, of: a) { closureKey(tag(of: $0)) != nil }) }
        case .group(let r, .tags): return loop.run { a, _ in .groups(group(r, of: a, byTags: tags)) }
        case .group(let r, .types): return loop.run { a, _ in .named(group(r, of: a, byTypes: types)) }
        case .group(let r, .closure):
            guard let closureKey else { return loop.run { a, _ in .groups(groupByClosureKey(r, of: a)) } }
            return loop.run { a, _ in .groups(group(r, of: a) { closureKey(tag(of: $0)) }) }
        case .commonAncestor: return loop.run { a, b in .node(commonAncestor(of: a, b)) }
        case .convertPoint: return loop.run { a, b in .point(convert(QueryGeometry.probe, from: a, to: b)) }
        }
    }

    /// Asks `query` once about `a` (and `b`, for a question about two nodes; ignored
    /// otherwise): ``asking(_:tags:types:closureKey:in:)`` with a loop of one.
    ///
    /// - Complexity: the query's own cost.
    @inlinable
    public func ask(
        _ query: RelativeQuery, _ a: Node, _ b: Node, tags: [Int], types: TypeKeys, closureKey: ((Int) -> Int?)? = nil
    ) -> QueryResult<Node> {
        asking(query, tags: tags, types: types, closureKey: closureKey, in: AskOnce(a: a, b: b))
    }
}

/// The loop of one question: ``RelativeQuerying/ask(_:_:_:tags:types:closureKey:)``.
public struct AskOnce<Node>: QueryLoop {
    /// The node asked about.
    ///
    /// - Complexity: O(1)
    public let a: Node
    /// The other node of a question about two.
    ///
    /// - Complexity: O(1)
    public let b: Node

    /// A loop that asks about `a` (and `b`) once.
    ///
    /// - Complexity: O(1)
    @inlinable
    public init(a: Node, b: Node) {
        self.a = a
        self.b = b
    }

    /// `ask(a, b)`.
    ///
    /// - Complexity: that of `ask`.
    @inlinable
    public func run(_ ask: (Node, Node) -> QueryResult<Node>) -> QueryResult<Node> { ask(a, b) }
}

/// An implementation's answer to one ``RelativeQuery``, its nodes as handles (node
/// numbers), so that two implementations' answers compare element by element.
public enum QueryAnswer: Hashable, Sendable {
    /// A yes or no.
    case yes(Bool)
    /// The node found, or `nil`.
    case node(Int?)
    /// Groups keyed by tag or by a closure's key.
    case groups([Int: [Int]])
    /// Groups keyed by type name (the facade's names).
    case named([String: [Int]])
    /// A converted point.
    case point(SIMD2<Double>)
}

extension RelativeQuerying {
    /// The answer to `query` about `a` (and `b`), its nodes as `handle` numbers them; the
    /// searches and groupings by closure use `closureKey` of a node's tag (a search finds
    /// the first relative it keys).
    ///
    /// - Complexity: the query's own cost, plus O(nodes in the answer).
    public func answer(
        _ query: RelativeQuery, _ a: Node, _ b: Node, tags: [Int], types: TypeKeys,
        closureKey: @escaping (Int) -> Int? = RelativeQuery.closureKey, handle: (Node) -> Int
    ) -> QueryAnswer {
        func numbered<K>(_ groups: [K: [Node]]) -> [K: [Int]] { groups.mapValues { $0.map(handle) } }
        switch ask(query, a, b, tags: tags, types: types, closureKey: closureKey) {
        case .yes(let y): return .yes(y)
        case .node(let x): return .node(x.map(handle))
        case .groups(let g): return .groups(numbered(g))
        case .named(let g): return .named(Dictionary(uniqueKeysWithValues: g.map { (Self.canonicalTypeName($0.key), $0.value.map(handle)) }))
        case .point(let p): return .point(p)
        }
    }
}
