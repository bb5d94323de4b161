import Foundation
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
    /// Whether both gave the same answers (for a naive run stopped by its budget: whether the
    /// arena's first answer equals a linear-time walk of the naive tree).
    var agree: Bool
    /// The naive core ran out of its time budget: its time is a lower bound.
    var naiveTimedOut = false

    private enum CodingKeys: String, CodingKey {
        case op, layer, nodes, queries, arenaNsPerOp, naiveNsPerOp, speedup, agree
    }
}

/// Runs the operations on a ``Workload``: each implementation answers the same queries,
/// timed separately; `agree` needs equal digests of every answer both gave and equal full
/// answers (mapped to node numbers) for the first query.
struct OperationRunner {
    let work: Workload
    let options: BenchOptions
    let minimum: Duration
    /// Tells the user what is being measured (progress on standard error).
    let note: (String) -> Void

    init(work: Workload, options: BenchOptions, note: @escaping (String) -> Void) {
        self.work = work
        self.options = options
        self.minimum = .milliseconds(options.minTime)
        self.note = note
    }

    /// The naive core's measurement per operation, made once and compared with each layer.
    typealias NaiveCache = [BenchOperation: NaiveMeasurement]

    func run(_ op: BenchOperation, layer: BenchLayer, naiveCache: inout NaiveCache) -> ResultRow {
        // `layout` aligns each view but the root once: at most n - 1 alignments.
        let n = op == .layout ? min(options.queryCount(for: op), work.count - 1) : options.queryCount(for: op)
        let (arena, naive, exact): (Sample, Sample, Bool)
        switch op {
        case .build:
            let name = layer.rawValue
            guard let a = work.buildSamples[name], let b = work.buildSamples["naive"] else { preconditionFailure("build not measured") }
            (arena, naive, exact) = (a, b, true)
        case .interleavedMutation:
            (arena, naive, exact) = interleaved(n, layer, &naiveCache)
        case .layout:
            (arena, naive, exact) = layout(n, layer, &naiveCache)
        default:
            (arena, naive, exact) = query(op, n, layer, &naiveCache)
        }
        let common = min(arena.digests.count, naive.digests.count)
        let timedOut = op.isWholeTree && naiveCache[op]?.timedOut == true
        // A naive run stopped by its budget left no digests: the first answer was checked instead.
        let agree = exact && (common > 0 ? arena.digests.prefix(common) == naive.digests.prefix(common) : timedOut)
        return ResultRow(
            op: op.rawValue, layer: layer.rawValue, nodes: work.count, queries: op == .build ? work.count : n,
            arenaNsPerOp: arena.nanosecondsPerOperation, naiveNsPerOp: naive.nanosecondsPerOperation,
            speedup: naive.nanosecondsPerOperation / arena.nanosecondsPerOperation, agree: agree, naiveTimedOut: timedOut)
    }

    // MARK: Queries

    private func query(_ op: BenchOperation, _ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> (Sample, Sample, Bool) {
        let w = work
        let tags = w.tags
        let typeIndices = w.typeIndices
        let coreTypes = Dictionary(typeIndices.map { (w.typeIDs[$0], StockCatalog.names[$0]) }, uniquingKeysWith: { a, _ in a })
        let viewTypes = typeIndices.map { StockCatalog.views[$0] }
        let root = 0

        var a: [Int32] = []
        var b: [Int32] = []
        switch op {
        case .isRelativeAncestor:
            (a, b) = (w.inputs.randomNodes(n, salt: 1), w.inputs.randomNodes(n, salt: 2))
        case .isRelativeDescendant:
            (a, b) = w.inputs.descendantPairs(n)
        case .isRelativeSibling:
            (a, b) = w.inputs.siblingPairs(n)
        case .convertPoint:
            (a, b) = (w.inputs.randomNodes(n, salt: 21), w.inputs.randomNodes(n, salt: 22))
            w.prepareGeometry(layer.rawValue)
            w.prepareGeometry("naive")
        default:
            a = w.inputs.randomNodes(n, salt: 5)
        }

        // Every implementation gets its own handles, gathered before timing. The full answer
        // to the first query is kept (not digested inside the timing) to be compared after.
        let core = layer == .core
        // Read after the geometry is set: a copy taken before would share the columns and be
        // copied on the first write.
        let (tree, ids, views) = (w.tree, w.ids, w.views)
        let (ia, ib) = core ? (a.map { ids[Int($0)] }, b.map { ids[Int($0)] }) : ([], [])
        let (va, vb) = core ? ([], []) : (a.map { views[Int($0)] }, b.map { views[Int($0)] })
        var first = FirstAnswer()

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
            // Answers are digested as the found node's number.
            arena = core
                ? measure(count: n, minimum: minimum) { i in Answers.node(tree.firstAncestor(of: ia[i], withTags: tags).map(w.handle)) }
                : measure(count: n, minimum: minimum) { i in Answers.node(va[i].findFirstAncestor(by: tags).map(w.handle)) }
        case .groupAncestorsByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { i in first.keep(i, tree.groupAncestors(of: ia[i], byTags: tags), Answers.tag, w.handle) }
                : measure(count: n, minimum: minimum) { i in first.keep(i, va[i].groupAncestors(by: tags), Answers.tag, w.handle) }
        case .groupDescendantsByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { i in first.keep(i, tree.groupDescendants(of: ids[root], byTags: tags), Answers.tag, w.handle) }
                : measure(count: n, minimum: minimum) { i in first.keep(i, views[root].groupDescendants(by: tags), Answers.tag, w.handle) }
        case .groupDescendantsByTypes:
            arena = core
                ? measure(count: n, minimum: minimum) { i in first.keep(i, tree.groupDescendants(of: ids[root], keyingTypes: coreTypes), Answers.name, w.handle) }
                : measure(count: n, minimum: minimum) { i in first.keep(i, views[root].groupDescendants(by: viewTypes), Answers.name, w.handle) }
        case .groupDescendantsByClosure:
            arena = core
                ? measure(count: n, minimum: minimum) { i in first.keep(i, tree.groupDescendants(of: ids[root]) { Answers.closureKey(tree.tag(of: $0)) }, Answers.tag, w.handle) }
                : measure(count: n, minimum: minimum) { i in first.keep(i, views[root].groupDescendants { Answers.closureKey($0.tag) }, Answers.tag, w.handle) }
        case .groupSiblingsByTags:
            arena = core
                ? measure(count: n, minimum: minimum) { i in first.keep(i, tree.groupSiblings(of: ia[i], byTags: tags), Answers.tag, w.handle) }
                : measure(count: n, minimum: minimum) { i in first.keep(i, va[i].groupSiblings(by: tags), Answers.tag, w.handle) }
        case .convertPoint:
            let p = BenchLayout.probe
            arena = core
                ? measure(count: n, minimum: minimum) { i in
                    let q = tree.convert(p, from: ia[i], to: ib[i])
                    return Answers.point(q.x, q.y)
                }
                : measure(count: n, minimum: minimum) { i in
                    let q = va[i].convert(CGPoint(x: p.x, y: p.y), to: vb[i])
                    return Answers.point(Double(q.x), Double(q.y))
                }
        case .build, .interleavedMutation, .layout:
            preconditionFailure("not a query operation")
        }

        var naive: NaiveMeasurement
        if let cached = cache[op] {
            naive = cached
        } else if op.isWholeTree {
            note("\(op.rawValue): naive core in a child process (budget \(options.naiveBudget) s); it copies a group on every append, as the original does, so large groups take long")
            naive = NaiveWorker.run(op, work: w, options: options, budget: .seconds(options.naiveBudget))
            if naive.timedOut {
                note("\(op.rawValue): the naive core did not finish one query within \(options.naiveBudget) s; its time is a lower bound; the arena's answer is checked against a linear-time walk of the naive tree instead")
                naive.firstAnswer = NaiveWorker.referenceAnswer(op, work: w)
            }
            cache[op] = naive
        } else {
            naive = NaiveWorker.measureInProcess(op, work: w, a: a, b: b, options: options, minimum: minimum)
            cache[op] = naive
        }
        let sameFirst = first.digest == nil || naive.firstAnswer == nil || first.digest == naive.firstAnswer
        let checked = (first.digest == nil) == (naive.firstAnswer == nil)
        return (arena, naive.sample, checked && sameFirst)
    }

    // MARK: Layout

    /// Aligns views `1 ... n` in node order, each to its random earlier view (see
    /// ``BenchLayout``), once, until the time is up or the pass ends; the digest of each
    /// alignment is the view's new frame origin. Changes the frames, so it runs after
    /// `convertPoint`; each implementation starts from the same seeded frames.
    private func layout(_ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> (Sample, Sample, Bool) {
        let w = work
        let targets = BenchLayout.targets(count: w.count, seed: w.seed)
        w.prepareGeometry(layer.rawValue)
        let arena: Sample
        if layer == .core {
            let ids = w.ids
            arena = measure(count: n, minimum: minimum, cycle: false) { i in
                BenchLayout.alignCore(&w.tree, ids[i + 1], to: ids[Int(targets[i + 1])])
            }
        } else {
            let views = w.views
            arena = measure(count: n, minimum: minimum, cycle: false) { i in
                BenchLayout.alignFacade(views[i + 1], to: views[Int(targets[i + 1])])
            }
        }
        let naiveSample: Sample
        if let cached = cache[.layout] {
            naiveSample = cached.sample
        } else {
            w.prepareGeometry("naive")
            let naive = w.naive
            naiveSample = measure(count: n, minimum: minimum, cycle: false) { i in
                BenchLayout.alignNaive(naive[i + 1], to: naive[Int(targets[i + 1])])
            }
            cache[.layout] = NaiveMeasurement(sample: naiveSample, firstAnswer: nil, timedOut: false)
        }
        return (arena, naiveSample, true)
    }

    // MARK: Interleaved mutation

    /// Alternates a move of a random subtree under a random node that is not in it (checked
    /// by the implementation itself) with one `isRelativeAncestor` query. Runs the sequence
    /// once, in order, until the time is up or it ends; mutates the trees, so it runs last.
    private func interleaved(_ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> (Sample, Sample, Bool) {
        let w = work
        let x = w.inputs.randomNodes(n, salt: 11)
        let y = w.inputs.randomNodes(n, salt: 12)
        let qa = w.inputs.randomNodes(n, salt: 13)
        let qb = w.inputs.randomNodes(n, salt: 14)
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
            naiveSample = cached.sample
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
            cache[.interleavedMutation] = NaiveMeasurement(sample: naiveSample, firstAnswer: nil, timedOut: false)
        }
        return (arena, naiveSample, true)
    }
}
