import Foundation
import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// One tree in every implementation (arena core, facade, naive core), built from one
/// `TreeSpec`, with the random query inputs every implementation answers.
///
/// Node `i` is `ids[i]` in the core, `views[i]` in the facade and `naive[i]` in the naive
/// core; query inputs are node numbers, so every implementation gets the same questions.
final class Workload {
    let spec: TreeSpec
    let seed: UInt64
    /// The core type of each stock-catalog index.
    let typeIDs: [TypeID]
    /// The tags grouped by.
    let tags: [Int]
    /// The stock-catalog indices of the types grouped by (see ``TreeSource``).
    let typeIndices: [Int]
    var tree = ViewTree()
    var ids: [NodeID] = []
    var views: [View] = []
    var naive: [NaiveView] = []

    /// Build time and bytes per node of each implementation.
    var buildSamples: [Implementation: Sample] = [:]
    var bytesPerNode: [Implementation: Double] = [:]
    /// Set when the naive build ran out of its budget: the nodes it had built. Its tree is
    /// then dropped, and nothing is asked of the naive core.
    var naiveBuildStopped: (built: Int, elapsed: Duration)?

    init(source: TreeSource, seed: UInt64) {
        spec = source.spec
        self.seed = seed
        typeIDs = source.typeIDs
        tags = source.tags
        typeIndices = source.typeIndices
    }

    deinit {
        Self.dropRootsLast(&views)
    }

    /// Empties `views`, which lists views in spec order (each after its superview), from
    /// the end. In spec order each root would go while its subviews are still referenced
    /// here, and each subview's tree would move to a store of its own (seconds at 10^6
    /// views, see the RelativeView catalog's "Views in memory"); from the end, the store still holds every subview when its
    /// root goes, and frees them all with no move.
    private static func dropRootsLast(_ views: inout [View]) {
        while views.popLast() != nil {}
    }

    var count: Int { spec.count }

    // MARK: Building

    /// Builds the tree in `implementation`: once to measure
    /// bytes per node (allocator statistics around the build), then timed, repeating until
    /// `minimum` has passed. A first build that alone took `minimum` or more is the timing
    /// (a slow build, such as the naive core's O(n²) chain, is not run twice). The last
    /// build is kept for the queries. The naive build stops when `naiveBudget` runs out
    /// (see ``naiveBuildStopped``): its time per node is then a lower bound.
    func build(_ implementation: Implementation, minimum: Duration, naiveBudget: Duration) {
        release(implementation)
        let clock = ContinuousClock()
        let before = MemoryProbe.allocatedBytes()
        let start = clock.now
        if implementation == .naive {
            let deadline = start + naiveBudget
            if !spec.buildNaive(into: &naive, continueWhile: { clock.now < deadline }) {
                let elapsed = clock.now - start
                naiveBuildStopped = (naive.count, elapsed)
                release(implementation)
                bytesPerNode[implementation] = .nan
                buildSamples[implementation] = Sample(nanosecondsPerOperation: nanoseconds(elapsed) / Double(count), operations: 0, digests: [])
                return
            }
        } else {
            buildOnce(implementation)
        }
        let first = clock.now - start
        // The allocator's count, plus the columns that are mappings of their own (the
        // allocator does not see those: see `ViewTree._mappedColumnBytes`).
        let mapped = implementation == .core ? tree._mappedColumnBytes : implementation == .facade ? (views.first?._mappedColumnBytes ?? 0) : 0
        let after = MemoryProbe.allocatedBytes() + mapped
        // A reading that is not positive means the probe was disturbed; report it as unknown.
        bytesPerNode[implementation] = after > before ? Double(after - before) / Double(count) : .nan
        var builds = 0
        var total = Duration.zero
        if first >= minimum {
            (builds, total) = (1, first)
        }
        while total < minimum {
            release(implementation)
            let start = clock.now
            buildOnce(implementation)
            total += clock.now - start
            builds += 1
        }
        buildSamples[implementation] = Sample(
            nanosecondsPerOperation: nanoseconds(total) / Double(builds * count), operations: builds * count,
            digests: [structureDigest(implementation)])
    }

    private func buildOnce(_ implementation: Implementation) {
        switch implementation {
        case .core:
            tree = ViewTree(minimumCapacity: count)
            spec.buildCore(into: &tree, ids: &ids, typeIDs: typeIDs)
            // Appends under random parents scatter the index's blocks; what a program does
            // after a bulk build by mutations (see `ViewTree.compactIndex()`), timed as part
            // of the build.
            tree.compactIndex()
        case .facade:
            spec.buildFacade(into: &views)
            // As the core's build: what a program does after a bulk build view by view.
            views.first?.compactIndex()
        case .naive:
            spec.buildNaive(into: &naive)
        }
    }

    /// Drops a previous build; the bench's own arrays are allocated before measuring memory.
    private func release(_ implementation: Implementation) {
        switch implementation {
        case .core:
            tree = ViewTree()
            ids = []
            ids.reserveCapacity(count)
        case .facade:
            Self.dropRootsLast(&views)
            views.reserveCapacity(count)
        case .naive:
            naive = []
            naive.reserveCapacity(count)
        }
    }

    /// A digest of the built structure (each node's parent and tag), equal across implementations.
    private func structureDigest(_ implementation: Implementation) -> UInt64 {
        var d: UInt64 = 0
        for i in 0 ..< count {
            let parent: Int
            let tag: Int
            switch implementation {
            case .core:
                parent = tree.parent(of: ids[i]).map { Int($0.index) } ?? -1
                tag = tree.tag(of: ids[i])
            case .facade:
                parent = views[i].superview.map { handleOfView[ObjectIdentifier($0)] ?? -2 } ?? -1
                tag = views[i].tag
            case .naive:
                parent = naive[i].superview.map { handleOfNaive[ObjectIdentifier($0)] ?? -2 } ?? -1
                tag = naive[i].tag
            }
            d &+= mix(UInt64(i) &* 0x1_0000_0001 ^ UInt64(bitPattern: Int64(parent)) &+ mix(UInt64(bitPattern: Int64(tag))))
        }
        return d
    }

    // MARK: Handles (for checking answers, never inside timing)

    // Made on first use, with an in-place modify accessor: a `lazy var` has none, so
    // `handleOfNaive[k] = v` would copy the whole table on every write (a million entries per
    // view that churn adds, at 10^6 nodes).
    private var handleTables: [Implementation: [ObjectIdentifier: Int]] = [:]
    /// The number of each facade view: its index in `views`.
    var handleOfView: [ObjectIdentifier: Int] {
        get { self[handlesOf: .facade] }
        _modify { yield &self[handlesOf: .facade] }
    }
    /// The number of each naive view: its index in `naive`.
    var handleOfNaive: [ObjectIdentifier: Int] {
        get { self[handlesOf: .naive] }
        _modify { yield &self[handlesOf: .naive] }
    }
    private subscript(handlesOf kind: Implementation) -> [ObjectIdentifier: Int] {
        get {
            makeHandles(kind)
            return handleTables[kind]!
        }
        _modify {
            makeHandles(kind)
            yield &handleTables[kind]!
        }
    }
    private func makeHandles(_ kind: Implementation) {
        if handleTables[kind] == nil { handleTables[kind] = kind == .naive ? Self.handles(naive) : Self.handles(views) }
    }

    private static func handles(_ objects: [some AnyObject]) -> [ObjectIdentifier: Int] {
        Dictionary(uniqueKeysWithValues: objects.enumerated().map { (ObjectIdentifier($1), $0) })
    }

    /// `sample` with its digests of found views (or naive views), taken as identities
    /// (``Answers/identity(_:)``), made into node numbers as ``Answers/node(_:)`` gives them.
    func numberingIdentities(_ sample: Sample, naive: Bool) -> Sample {
        var sample = sample
        let handles = naive ? handleOfNaive : handleOfView
        sample.digests = Answers.nodes(ofIdentities: sample.digests) { handles[$0] ?? -1 }
        return sample
    }

    func handle(_ id: NodeID) -> Int { Int(id.index) }
    func handle(_ view: View) -> Int { handleOfView[ObjectIdentifier(view)] ?? -1 }
    func handle(_ view: NaiveView) -> Int { handleOfNaive[ObjectIdentifier(view)] ?? -1 }

    // MARK: Geometry (for convertPoint and layout)

    /// The implementations whose nodes have their frames.
    private var framed: Set<Implementation> = []

    /// Gives every node of `implementation` its seeded frame and bounds origin (once, untimed).
    func prepareGeometry(_ implementation: Implementation) {
        guard framed.insert(implementation).inserted else { return }
        let geometry = QueryGeometry.frames(count: count, seed: seed)
        for (i, g) in geometry.enumerated() {
            switch implementation {
            case .core:
                tree.setFrameOrigin(g.origin, of: ids[i])
                tree.setFrameSize(g.size, of: ids[i])
                tree.setBoundsOrigin(g.bounds, of: ids[i])
            case .facade:
                views[i].frame = CGRect(x: g.origin.x, y: g.origin.y, width: g.size.x, height: g.size.y)
                views[i].bounds.origin = CGPoint(x: g.bounds.x, y: g.bounds.y)
            case .naive:
                naive[i].frame = CGRect(x: g.origin.x, y: g.origin.y, width: g.size.x, height: g.size.y)
                naive[i].bounds.origin = CGPoint(x: g.bounds.x, y: g.bounds.y)
            }
        }
    }

    // MARK: Churn

    private var churnScriptMade: ChurnScript?

    /// The implementations whose tree structure an operation changed (`interleavedMutation`
    /// moves subtrees, and runs a time-bounded prefix of its steps, so each implementation
    /// may stop at a different step).
    var restructured: Set<Implementation> = []

    /// Builds `implementation`'s tree again from the spec if an operation changed its
    /// structure, so that `churn` starts every implementation from the same tree. Untimed.
    func restore(_ implementation: Implementation) {
        guard restructured.remove(implementation) != nil else { return }
        release(implementation)
        buildOnce(implementation)
        // The views are new objects: their handle table is made again on first use.
        handleTables[implementation] = nil
    }

    /// The `churn` script of `steps` steps on the tree as built (see ``restore(_:)``), made once.
    func churnScript(steps: Int) -> ChurnScript {
        if let churnScriptMade { return churnScriptMade }
        var children = [[Int32]](repeating: [], count: count)
        // Nodes are built in order, each appended to its parent: children in node order.
        for (i, p) in spec.parents.enumerated() where p >= 0 { children[Int(p)].append(Int32(i)) }
        let script = ChurnScript(parents: spec.parents, children: children, count: steps, tags: tags, seed: seed)
        churnScriptMade = script
        return script
    }

    // MARK: Query inputs

    /// The seeded query inputs (shared with Benchmarks/).
    lazy var inputs = QueryInputs(spec: spec, seed: seed)
}
