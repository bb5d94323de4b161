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
