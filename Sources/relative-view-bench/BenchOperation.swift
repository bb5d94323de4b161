/// The operations the benchmark measures, by the names reports and scripts use.
enum BenchOperation: String, CaseIterable, Sendable {
    case build
    case isRelativeAncestor
    case isRelativeDescendant
    case findFirstAncestorByTags
    case groupAncestorsByTags
    case groupDescendantsByTags
    case groupDescendantsByTypes
    case groupDescendantsByClosure
    case isRelativeSibling
    case groupSiblingsByTags
    case convertPoint
    case layout
    case interleavedMutation
    case churn

    /// Why the operation cannot run on a tree of `nodes` nodes, or `nil` if it can.
    func cannotRun(onNodes nodes: Int) -> String? {
        switch self {
        case .layout where nodes < 2:
            "it aligns every view but the root to an earlier view, and this tree has only its root"
        default:
            nil
        }
    }

    /// Whether one query visits the whole tree (so the default query count is small).
    var isWholeTree: Bool {
        switch self {
        case .groupDescendantsByTags, .groupDescendantsByTypes, .groupDescendantsByClosure: true
        default: false
        }
    }
}

/// Which implementation is compared with the naive core.
enum BenchLayer: String, CaseIterable, Sendable {
    /// `ViewTree` and `NodeID`: the arena with no object per node.
    case core
    /// `View`: the class facade over the arena.
    case facade
}
