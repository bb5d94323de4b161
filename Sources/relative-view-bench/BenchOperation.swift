import RelativeViewFixtures

/// The operations the benchmark measures, by the names reports and scripts use: building
/// the tree, each query of the table shared with `Benchmarks/` (``RelativeQuery``, in its
/// order), then the operations that change the tree.
enum BenchOperation: Hashable, CaseIterable, RawRepresentable, Sendable {
    case build
    case query(RelativeQuery)
    case layout
    case interleavedMutation
    case churn

    static var allCases: [BenchOperation] {
        [.build] + RelativeQuery.allCases.map(BenchOperation.query) + [.layout, .interleavedMutation, .churn]
    }

    init?(rawValue: String) {
        guard let op = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = op
    }

    var rawValue: String {
        switch self {
        case .build: "build"
        case .query(let query): query.rawValue
        case .layout: "layout"
        case .interleavedMutation: "interleavedMutation"
        case .churn: "churn"
        }
    }

    /// The query this operation times, or `nil` for the operations that build or change the tree.
    var query: RelativeQuery? {
        if case .query(let query) = self { return query }
        return nil
    }

    /// Whether one query visits the whole tree (so the default query count is small).
    var isWholeTree: Bool { query?.isWholeTree ?? false }

    /// Why the operation cannot run on a tree of `nodes` nodes, or `nil` if it can.
    func cannotRun(onNodes nodes: Int) -> String? {
        switch self {
        case .layout where nodes < 2:
            "it aligns every view but the root to an earlier view, and this tree has only its root"
        default:
            nil
        }
    }
}

/// The three implementations a run builds its tree in and asks the same questions.
enum Implementation: String, CaseIterable, Sendable {
    /// The naive core: the original's pointer walks (`NaiveView`).
    case naive
    /// `ViewTree` and `NodeID`: the arena with no object per node.
    case core
    /// `View`: the class facade over the arena.
    case facade
}

/// Which implementation is compared with the naive core.
enum BenchLayer: String, CaseIterable, Sendable {
    /// `ViewTree` and `NodeID`: the arena with no object per node.
    case core
    /// `View`: the class facade over the arena.
    case facade

    /// The implementation this layer measures.
    var implementation: Implementation {
        switch self {
        case .core: .core
        case .facade: .facade
        }
    }
}
