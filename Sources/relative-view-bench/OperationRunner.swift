import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// One row of results: an operation on one layer against the naive core, on one tree size.
struct ResultRow: Encodable {
    var op: String
    var layer: String
    var nodes: Int
    var queries: Int
    var arenaNsPerOp: Double
    var naiveNsPerOp: Double
    var speedup: Double
    var agree: Bool
}

/// Runs the operations on a ``Workload``: each implementation answers the same queries,
/// timed separately; `agree` needs equal digests of every answer both gave and equal full
/// answers (mapped to node numbers) for the first query.
struct OperationRunner {
    let work: Workload
    let options: BenchOptions
    let minimum: Duration

    init(work: Workload, options: BenchOptions) {
        self.work = work
        self.options = options
        self.minimum = .milliseconds(options.minTime)
    }

    /// The naive core's sample per operation, measured once and compared with each layer.
    typealias NaiveCache = [BenchOperation: Sample]

    func run(_ op: BenchOperation, layer: BenchLayer, naiveCache: inout NaiveCache) -> ResultRow {
        let n = options.queryCount(for: op)
        let (arena, naive, exact): (Sample, Sample, Bool)
        switch op {
        case .build:
            let name = layer.rawValue
            guard let a = work.buildSamples[name], let b = work.buildSamples["naive"] else { preconditionFailure("build not measured") }
            (arena, naive, exact) = (a, b, true)
        case .interleavedMutation:
            (arena, naive, exact) = interleaved(n, layer, &naiveCache)
        default:
            (arena, naive, exact) = query(op, n, layer, &naiveCache)
        }
        let common = min(arena.digests.count, naive.digests.count)
        let agree = exact && common > 0 && arena.digests.prefix(common) == naive.digests.prefix(common)
        return ResultRow(
            op: op.rawValue, layer: layer.rawValue, nodes: work.count, queries: op == .build ? work.count : n,
            arenaNsPerOp: arena.nanosecondsPerOperation, naiveNsPerOp: naive.nanosecondsPerOperation,
            speedup: naive.nanosecondsPerOperation / arena.nanosecondsPerOperation, agree: agree)
    }

    // MARK: Queries

    private func query(_ op: BenchOperation, _ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> (Sample, Sample, Bool) {
        let w = work
        let tags = options.tags
        let typeIndices = options.types.compactMap(StockCatalog.index(named:))
        let coreTypes = Dictionary(typeIndices.map { (w.typeIDs[$0], StockCatalog.names[$0]) }, uniquingKeysWith: { a, _ in a })
        let viewTypes = typeIndices.map { StockCatalog.views[$0] }
        let naiveTypes = typeIndices.map { StockCatalog.naiveViews[$0] }
        let intKey = { (k: Int) in UInt64(bitPattern: Int64(k)) }
        let nameKey = { (k: String) in stableDigest(StockCatalog.facadeName(ofNaiveKey: k)) }
        let closureKey = { (tag: Int) -> Int? in tag % 10 == 0 ? tag / 10 : nil }
        let (tree, ids, views, naive) = (w.tree, w.ids, w.views, w.naive)
        let root = 0

        var a: [Int32] = []
        var b: [Int32] = []
        switch op {
        case .isRelativeAncestor:
            (a, b) = (w.randomNodes(n, salt: 1), w.randomNodes(n, salt: 2))
        case .isRelativeDescendant:
            let shallow = w.shallowNodes
            var rng = SplitMix64(seed: w.seed ^ mix(3))
            a = w.randomNodes(n, salt: 4)
            b = (0 ..< n).map { _ in shallow[Int.random(in: 0 ..< shallow.count, using: &rng)] }
        case .isRelativeSibling:
            (a, b) = w.siblingPairs(n)
        default:
            a = w.randomNodes(n, salt: 5)
        }

        // Every implementation gets its own handles, gathered before timing.
        let core = layer == .core
        let (ia, ib) = core ? (a.map { ids[Int($0)] }, b.map { ids[Int($0)] }) : ([], [])
        let (va, vb) = core ? ([], []) : (a.map { views[Int($0)] }, b.map { views[Int($0)] })

        // The arena side, then the naive side (measured once for both layers).
        let arena: Sample
        switch op {
        case .isRelativeAncestor:
            arena = core
                ? measure(count: n, minimum: minimum) { i in tree.isAncestor(ia[i], of: ib[i]) ? 1 : 0 }
                : measure(count: n, minimum: minimum) { i in va[i].isRelativeAncestor(of: vb[i]) ? 1 : 0 }
        case .isRelativeDescendant:
            arena = core
                ? measure(count: n, minimum: minimum) { i in tree.isDescendant(ia[i], of: ib[i]) ? 1 : 0 }
                : measure(count: n, minimum: minimum) { i in va[i].isRelativeDescendant(of: vb[i]) ? 1 : 0 }
        case .isRelativeSibling:
            arena = core
                ? measure(count: n, minimum: minimum) { i in tree.isSibling(ia[i], of: ib[i]) ? 1 : 0 }
                : measure(count: n, minimum: minimum) { i in va[i].isRelativeSibling(of: vb[i]) ? 1 : 0 }
        case .findFirstAncestorByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { i in UInt64(bitPattern: Int64(tree.firstAncestor(of: ia[i], withTags: tags).map { Int($0.index) } ?? -1)) }
                : measure(count: n, minimum: minimum) { i in UInt64(bitPattern: Int64(va[i].findFirstAncestor(by: tags)?.tag ?? -1)) }
        case .groupAncestorsByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { i in digest(tree.groupAncestors(of: ia[i], byTags: tags), key: intKey) }
                : measure(count: n, minimum: minimum) { i in digest(va[i].groupAncestors(by: tags), key: intKey) }
        case .groupDescendantsByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { _ in digest(tree.groupDescendants(of: ids[root], byTags: tags), key: intKey) }
                : measure(count: n, minimum: minimum) { _ in digest(views[root].groupDescendants(by: tags), key: intKey) }
        case .groupDescendantsByTypes:
            arena = core
                ? measure(count: n, minimum: minimum) { _ in digest(tree.groupDescendants(of: ids[root], keyingTypes: coreTypes), key: nameKey) }
                : measure(count: n, minimum: minimum) { _ in digest(views[root].groupDescendants(by: viewTypes), key: nameKey) }
        case .groupDescendantsByClosure:
            arena = core
                ? measure(count: n, minimum: minimum) { _ in digest(tree.groupDescendants(of: ids[root]) { closureKey(tree.tag(of: $0)) }, key: intKey) }
                : measure(count: n, minimum: minimum) { _ in digest(views[root].groupDescendants { closureKey($0.tag) }, key: intKey) }
        case .groupSiblingsByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { i in digest(tree.groupSiblings(of: ia[i], byTags: tags), key: intKey) }
                : measure(count: n, minimum: minimum) { i in digest(va[i].groupSiblings(by: tags), key: intKey) }
        case .build, .interleavedMutation:
            preconditionFailure("not a query operation")
        }

        let naiveSample: Sample
        if let cached = cache[op] {
            naiveSample = cached
        } else {
            let (na, nb) = (a.map { naive[Int($0)] }, b.map { naive[Int($0)] })
            switch op {
            case .isRelativeAncestor:
                naiveSample = measure(count: n, minimum: minimum) { i in na[i].isRelativeAncestor(of: nb[i]) ? 1 : 0 }
            case .isRelativeDescendant:
                naiveSample = measure(count: n, minimum: minimum) { i in na[i].isRelativeDescendant(of: nb[i]) ? 1 : 0 }
            case .isRelativeSibling:
                naiveSample = measure(count: n, minimum: minimum) { i in na[i].isRelativeSibling(of: nb[i]) ? 1 : 0 }
            case .findFirstAncestorByTags:
                // Answers are compared by node number for the core and by tag for the facade, below.
                naiveSample = measure(count: n, minimum: minimum) { i in UInt64(bitPattern: Int64(na[i].findFirstAncestor(by: tags)?.tag ?? -1)) }
            case .groupAncestorsByTags:
                naiveSample = measure(count: n, minimum: minimum) { i in digest(na[i].groupAncestors(by: tags), key: intKey) }
            case .groupDescendantsByTags:
                naiveSample = measure(count: n, minimum: minimum) { _ in digest(naive[root].groupDescendants(by: tags), key: intKey) }
            case .groupDescendantsByTypes:
                naiveSample = measure(count: n, minimum: minimum) { _ in digest(naive[root].groupDescendants(by: naiveTypes), key: nameKey) }
            case .groupDescendantsByClosure:
                naiveSample = measure(count: n, minimum: minimum) { _ in digest(naive[root].groupDescendants { closureKey($0.tag) }, key: intKey) }
            case .groupSiblingsByTags:
                naiveSample = measure(count: n, minimum: minimum) { i in digest(na[i].groupSiblings(by: tags), key: intKey) }
            case .build, .interleavedMutation:
                preconditionFailure("not a query operation")
            }
            cache[op] = naiveSample
        }

        var arenaSample = arena
        if op == .findFirstAncestorByTags && core {
            // The core answers node ids: turn the digests into the found node's tag, as the others give.
            arenaSample.digests = arena.digests.map { d in
                let node = Int(Int64(bitPattern: d))
                return UInt64(bitPattern: Int64(node < 0 ? -1 : w.spec.tags[node]))
            }
        }
        return (arenaSample, naiveSample, firstAnswersEqual(op, layer, a.first ?? 0, b.first ?? 0, coreTypes, viewTypes, naiveTypes))
    }

    /// Compares the full answers to the first query, node by node and in order.
    private func firstAnswersEqual(
        _ op: BenchOperation, _ layer: BenchLayer, _ a: Int32, _ b: Int32,
        _ coreTypes: [TypeID: String], _ viewTypes: [View.Type], _ naiveTypes: [NaiveView.Type]
    ) -> Bool {
        let w = work
        let tags = options.tags
        let (x, y) = (Int(a), Int(b))
        let closureKey = { (tag: Int) -> Int? in tag % 10 == 0 ? tag / 10 : nil }
        func same<K: Hashable>(_ core: [K: [NodeID]], _ facade: [K: [View]], _ naive: [K: [NaiveView]]) -> Bool {
            let expected = naive.mapValues { $0.map(w.handle) }
            return layer == .core ? core.mapValues { $0.map(w.handle) } == expected : facade.mapValues { $0.map(w.handle) } == expected
        }
        func renamed(_ groups: [String: [NaiveView]]) -> [String: [NaiveView]] {
            Dictionary(uniqueKeysWithValues: groups.map { (StockCatalog.facadeName(ofNaiveKey: $0.key), $0.value) })
        }
        switch op {
        case .findFirstAncestorByTags:
            let expected = w.naive[x].findFirstAncestor(by: tags).map(w.handle)
            return layer == .core
                ? w.tree.firstAncestor(of: w.ids[x], withTags: tags).map(w.handle) == expected
                : w.views[x].findFirstAncestor(by: tags).map(w.handle) == expected
        case .groupAncestorsByTags:
            return same(w.tree.groupAncestors(of: w.ids[x], byTags: tags), w.views[x].groupAncestors(by: tags), w.naive[x].groupAncestors(by: tags))
        case .groupDescendantsByTags:
            return same(w.tree.groupDescendants(of: w.ids[0], byTags: tags), w.views[0].groupDescendants(by: tags), w.naive[0].groupDescendants(by: tags))
        case .groupDescendantsByTypes:
            return same(w.tree.groupDescendants(of: w.ids[0], keyingTypes: coreTypes), w.views[0].groupDescendants(by: viewTypes), renamed(w.naive[0].groupDescendants(by: naiveTypes)))
        case .groupDescendantsByClosure:
            let tree = w.tree
            return same(tree.groupDescendants(of: w.ids[0]) { closureKey(tree.tag(of: $0)) }, w.views[0].groupDescendants { closureKey($0.tag) }, w.naive[0].groupDescendants { closureKey($0.tag) })
        case .groupSiblingsByTags:
            return same(w.tree.groupSiblings(of: w.ids[x], byTags: tags), w.views[x].groupSiblings(by: tags), w.naive[x].groupSiblings(by: tags))
        default:
            // Boolean answers: the digests already are the full answers.
            _ = y
            return true
        }
    }

    // MARK: Interleaved mutation

    /// Alternates a move of a random subtree under a random node that is not in it (checked
    /// by the implementation itself) with one `isRelativeAncestor` query. Runs the sequence
    /// once, in order, until the time is up or it ends; mutates the trees, so it runs last.
    private func interleaved(_ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> (Sample, Sample, Bool) {
        let w = work
        let x = w.randomNodes(n, salt: 11)
        let y = w.randomNodes(n, salt: 12)
        let qa = w.randomNodes(n, salt: 13)
        let qb = w.randomNodes(n, salt: 14)
        let arena: Sample
        if layer == .core {
            let ids = w.ids
            arena = measure(count: n, minimum: minimum, cycle: false) { i in
                let (nx, ny) = (ids[Int(x[i])], ids[Int(y[i])])
                var moved: UInt64 = 0
                if nx != ny && !w.tree.isAncestor(nx, of: ny) {
                    w.tree.append(nx, to: ny)
                    moved = 2
                }
                return moved | (w.tree.isAncestor(ids[Int(qa[i])], of: ids[Int(qb[i])]) ? 1 : 0)
            }
        } else {
            let views = w.views
            arena = measure(count: n, minimum: minimum, cycle: false) { i in
                let (vx, vy) = (views[Int(x[i])], views[Int(y[i])])
                var moved: UInt64 = 0
                if vx !== vy && !vx.isRelativeAncestor(of: vy) {
                    vy.addSubview(vx)
                    moved = 2
                }
                return moved | (views[Int(qa[i])].isRelativeAncestor(of: views[Int(qb[i])]) ? 1 : 0)
            }
        }
        let naiveSample: Sample
        if let cached = cache[.interleavedMutation] {
            naiveSample = cached
        } else {
            let naive = w.naive
            naiveSample = measure(count: n, minimum: minimum, cycle: false) { i in
                let (vx, vy) = (naive[Int(x[i])], naive[Int(y[i])])
                var moved: UInt64 = 0
                if vx !== vy && !vx.isRelativeAncestor(of: vy) {
                    vy.addSubview(vx)
                    moved = 2
                }
                return moved | (naive[Int(qa[i])].isRelativeAncestor(of: naive[Int(qb[i])]) ? 1 : 0)
            }
            cache[.interleavedMutation] = naiveSample
        }
        return (arena, naiveSample, true)
    }
}
