/// The query operations the benchmarks time, with what each asks: one table that
/// `relative-view-bench`, the package-benchmark suite in `Benchmarks/` and their tests read,
/// so that a query is named, given its inputs and its grouping key in one place.
///
/// Each implementation (arena core, `View` facade, naive core) answers a query in the code
/// that times it; this table says which nodes it is asked about.
public enum BenchQuery: String, CaseIterable, Sendable {
    /// Whether one random node is an ancestor of another.
    case isRelativeAncestor
    /// Whether a random node descends from a node at depth 2 or less.
    case isRelativeDescendant
    /// The nearest ancestor of a random node with one of the asked tags.
    case findFirstAncestorByTags
    /// The ancestors of a random node, grouped by the asked tags.
    case groupAncestorsByTags
    /// The root's descendants, grouped by the asked tags.
    case groupDescendantsByTags
    /// The root's descendants, grouped by the asked types.
    case groupDescendantsByTypes
    /// The root's descendants, grouped by ``closureKey(_:)`` of their tags.
    case groupDescendantsByClosure
    /// Whether two nodes (half of the pairs sharing a parent) are siblings.
    case isRelativeSibling
    /// The siblings of a random node, grouped by the asked tags.
    case groupSiblingsByTags
    /// The siblings of a random node, grouped by the asked types.
    case groupSiblingsByTypes
    /// A point converted between the spaces of two random views.
    case convertPoint

    /// Whether one query visits the whole tree: it is asked of the root, and few are asked.
    ///
    /// - Complexity: O(1)
    public var isWholeTree: Bool {
        switch self {
        case .groupDescendantsByTags, .groupDescendantsByTypes, .groupDescendantsByClosure: true
        default: false
        }
    }

    /// Whether a query is about two nodes (`b` of ``inputs(_:count:)`` is used).
    ///
    /// - Complexity: O(1)
    public var isPairwise: Bool {
        switch self {
        case .isRelativeAncestor, .isRelativeDescendant, .isRelativeSibling, .convertPoint: true
        default: false
        }
    }

    /// The nodes `count` queries are asked about, as node numbers: query `i` is about `a[i]`
    /// (and `b[i]` when ``isPairwise``; `b` is empty otherwise). A whole-tree query is asked
    /// of the root whatever `a` holds.
    ///
    /// - Complexity: O(count), plus O(nodes) for the pairs of the descendant and sibling queries.
    public func inputs(_ q: QueryInputs, count: Int) -> (a: [Int32], b: [Int32]) {
        switch self {
        case .isRelativeAncestor: return (q.randomNodes(count, salt: 1), q.randomNodes(count, salt: 2))
        case .isRelativeDescendant:
            let (descendants, ancestors) = q.descendantPairs(count)
            return (descendants, ancestors)
        case .isRelativeSibling:
            let (a, b) = q.siblingPairs(count)
            return (a, b)
        case .convertPoint: return (q.randomNodes(count, salt: 21), q.randomNodes(count, salt: 22))
        default: return (q.randomNodes(count, salt: 5), [])
        }
    }

    /// The key `groupDescendantsByClosure` groups by: every tenth tag value, the others left out.
    ///
    /// - Complexity: O(1)
    @inlinable
    public static func closureKey(_ tag: Int) -> Int? {
        tag % 10 == 0 ? tag / 10 : nil
    }
}

extension QueryInputs {
    /// The steps of the interleaved mutation: step `i` moves node `x[i]` under node `y[i]`
    /// (unless that would make a cycle), then asks whether `qa[i]` is an ancestor of `qb[i]`.
    ///
    /// - Complexity: O(count)
    public func mutationSteps(_ count: Int) -> (x: [Int32], y: [Int32], qa: [Int32], qb: [Int32]) {
        (randomNodes(count, salt: 11), randomNodes(count, salt: 12), randomNodes(count, salt: 13), randomNodes(count, salt: 14))
    }
}
