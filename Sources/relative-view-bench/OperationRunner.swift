import Foundation
import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// One row of results: an operation on one layer against the naive core, on one tree size.
struct ResultRow: Encodable {
    /// How the row's naive side ended (`status` in JSON and CSV).
    enum Status: String, Encodable {
        /// Both measured: `speedup` is a ratio of two measured times.
        case measured
        /// The naive core was stopped by its time budget: `naiveNsPerOp` and `speedup` are
        /// lower bounds.
        case lowerBound
        /// The naive measurement failed (`note` says why): no naive figure, no speed-up.
        case naiveFailed
        /// The naive tree was not built within its budget: nothing was asked of it.
        case naiveNotBuilt
        /// Both measured and agreed, but the query found no node (`matched` is 0): the row
        /// measures empty answers, so it gives no speed-up.
        case noMatch
    }

    var op: String
    var layer: String
    var nodes: Int
    var queries: Int
    var arenaNsPerOp: Double
    /// `nil` when the naive side failed or was not built.
    @NullWhenAbsent var naiveNsPerOp: Double? = nil
    /// `naiveNsPerOp / arenaNsPerOp`; a lower bound when `status` is `lowerBound`.
    @NullWhenAbsent var speedup: Double? = nil
    var status: Status
    /// Whether both gave the same answers (for a naive run stopped by its budget: whether the
    /// arena's first answer equals a linear-time walk of the naive tree); `nil` when nothing
    /// could be compared.
    @NullWhenAbsent var agree: Bool? = nil
    /// Why a figure is missing, bounded or unchecked.
    @NullWhenAbsent var note: String? = nil
    /// Per-step latencies of `churn` (`nil` for the other operations).
    @NullWhenAbsent var latency: Latency? = nil
    /// The nodes the core found in the first answers (see `OperationRunner.matchSample`);
    /// `nil` for yes-or-no questions, conversions, builds and mutations.
    @NullWhenAbsent var matched: Int? = nil
    /// Each run's figures with `--runs` 2 or more (the row's own are the medians).
    @NullWhenAbsent var runs: [Run]? = nil

    /// One of the `--runs`.
    struct Run: Encodable {
        var arenaNsPerOp: Double
        var naiveNsPerOp: Double
        /// `naiveNsPerOp / arenaNsPerOp`.
        var speedup: Double

        init(arenaNsPerOp: Double, naiveNsPerOp: Double) {
            (self.arenaNsPerOp, self.naiveNsPerOp, speedup) = (arenaNsPerOp, naiveNsPerOp, naiveNsPerOp / arenaNsPerOp)
        }
    }

    /// The smallest and largest speed-up of the runs, with `--runs` 2 or more.
    var speedupSpread: (low: Double, high: Double)? {
        guard let runs, let low = runs.map(\.speedup).min(), let high = runs.map(\.speedup).max() else { return nil }
        return (low, high)
    }

    /// The `churn` latencies of the arena layer and of the naive core (if it ran).
    struct Latency: Encodable {
        var arena: ChurnLatency
        var naive: ChurnLatency?
    }
}

/// Runs the operations on a ``Workload``: each implementation answers the same queries,
/// timed separately; `agree` needs equal digests of every answer both gave and equal full
/// answers (mapped to node numbers) for the first query.
struct OperationRunner {
    let work: Workload
    let options: BenchOptions
    let minimum: Duration
    /// Where the naive worker's error output goes (the run's scratch directory).
    let scratch: ScratchDirectory
    /// Tells the user what is being measured (progress on standard error).
    let note: (String) -> Void

    init(work: Workload, options: BenchOptions, scratch: ScratchDirectory, note: @escaping (String) -> Void) {
        self.work = work
        self.options = options
        self.scratch = scratch
        self.minimum = .milliseconds(options.minTime)
        self.note = note
    }

    /// The naive core's measurement per operation, made once and compared with each layer.
    typealias NaiveCache = [NaiveKey: NaiveMeasurement]

    /// An operation's naive measurement in one of the `--runs`.
    struct NaiveKey: Hashable {
        var op: BenchOperation
        var run: Int
    }

    /// One measurement of an operation: the arena's sample, the digest of its first whole
    /// answer, and the naive core's measurement.
    typealias Measurement = (arena: Sample, first: UInt64?, naive: NaiveMeasurement)

    func run(_ op: BenchOperation, layer: BenchLayer, naiveCache: inout NaiveCache) -> ResultRow {
        // `layout` aligns each view but the root once: at most n - 1 alignments.
        let n = op == .layout ? min(options.queryCount(for: op), work.count - 1) : options.queryCount(for: op)
        var runs: [Measurement] = []
        switch op {
        case .build:
            guard let a = work.buildSamples[layer.implementation], let b = work.buildSamples[.naive] else { preconditionFailure("build not measured") }
            let outcome: NaiveMeasurement.Outcome = work.naiveBuildStopped == nil ? .measured : .stoppedByBudget
            runs = [(a, nil, NaiveMeasurement(sample: b, firstAnswer: nil, outcome: outcome))]
        case .interleavedMutation:
            runs = [interleaved(n, layer, &naiveCache)]
        case .layout:
            runs = [layout(n, layer, &naiveCache)]
        case .churn:
            runs = [churn(layer, &naiveCache)]
        case .query(let q):
            // Queries leave the trees as they are, so they can be measured again (`--runs`).
            for r in 0 ..< options.runs { runs.append(query(q, n, layer, &naiveCache, run: r)) }
        }
        // The median run of the arena and of the naive core, each by its time.
        let arena = runs.map(\.arena).sorted { $0.nanosecondsPerOperation < $1.nanosecondsPerOperation }[runs.count / 2]
        let naive = runs.map(\.naive).sorted { $0.sample.nanosecondsPerOperation < $1.sample.nanosecondsPerOperation }[runs.count / 2]
        var row = ResultRow(
            op: op.rawValue, layer: layer.rawValue, nodes: work.count, queries: op == .build ? work.count : n,
            arenaNsPerOp: arena.nanosecondsPerOperation, status: .measured)
        if let latency = arena.latency { row.latency = ResultRow.Latency(arena: latency, naive: naive.sample.latency) }
        switch naive.outcome {
        case .measured:
            row.naiveNsPerOp = naive.sample.nanosecondsPerOperation
            row.speedup = naive.sample.nanosecondsPerOperation / arena.nanosecondsPerOperation
            // Every run's answers are compared, not only the median's.
            row.agree = runs.allSatisfy { run in
                let common = min(run.arena.digests.count, run.naive.sample.digests.count)
                return common > 0 && run.arena.digests.prefix(common) == run.naive.sample.digests.prefix(common)
                    && run.first == run.naive.firstAnswer
            }
            if runs.count > 1 {
                row.runs = runs.map { ResultRow.Run(arenaNsPerOp: $0.arena.nanosecondsPerOperation, naiveNsPerOp: $0.naive.sample.nanosecondsPerOperation) }
            }
        case .stoppedByBudget:
            row.status = .lowerBound
            row.naiveNsPerOp = naive.sample.nanosecondsPerOperation
            row.speedup = naive.sample.nanosecondsPerOperation / arena.nanosecondsPerOperation
            if let stopped = work.naiveBuildStopped {
                // The build row: the naive build ran out of its budget; there is no tree to compare.
                row.note = "the naive build was stopped by its budget after \(grouped(stopped.built)) of \(grouped(work.count)) nodes: its time per node is a lower bound, and its tree was not compared"
            } else {
                // No digests: the arena's whole first answer is checked against a linear-time walk.
                row.agree = runs[0].first != nil && runs[0].first == naive.firstAnswer
                row.note = "the naive core did not finish one query within its budget: its time is a lower bound; the arena's answer was checked against a linear-time walk of the naive tree"
            }
        case .failed(let reason):
            row.status = .naiveFailed
            row.note = reason
        case .notBuilt:
            row.status = .naiveNotBuilt
            row.note = "the naive tree was not built within its budget (--naive-budget): nothing to compare with"
        }
        if case .query(let q) = op, let matched = matches(q, n) {
            row.matched = matched
            if matched == 0 && (row.status == .measured || row.status == .lowerBound) {
                row.status = .noMatch
                row.speedup = nil
                let asked = q.isWholeTree ? "the root's whole answer" : "the answers to the first \(grouped(min(n, Self.matchSample))) queries"
                row.note = "nothing matched in \(asked) (tags \(work.tags.map(String.init).joined(separator: ",")), types \(work.typeIndices.map { StockCatalog.names[$0] }.joined(separator: ","))): an empty answer measures a scan, not a grouping, so no speed-up is given"
            }
        }
        return row
    }

    /// Queries whose nodes found are counted for ``matches(_:_:)``.
    static let matchSample = 1_000

    /// The nodes the core finds in answer to the first ``matchSample`` queries of a grouping
    /// or a search (the whole tree's, once, for a whole-tree grouping), untimed; `nil` for a
    /// query that finds no nodes (yes-or-no questions, conversions).
    private func matches(_ query: RelativeQuery, _ n: Int) -> Int? {
        // A whole-tree grouping is asked of the root each time: its answer once.
        let (a, b) = query.inputs(work.inputs, count: query.isWholeTree ? 1 : min(n, Self.matchSample))
        return work.coreArm(query, a, b).nodesFound(query)
    }

    /// The naive side of `op`, measured once per run and shared by both layers; nothing when
    /// the naive tree was not built.
    /// A naive side that did not finish (stopped by its budget, or failed) in the first run
    /// stands for every later run: running it again would only wait for the budget again.
    func naiveSide(_ op: BenchOperation, _ cache: inout NaiveCache, run: Int = 0, _ measure: () -> NaiveMeasurement) -> NaiveMeasurement {
        if work.naiveBuildStopped != nil { return .notBuilt }
        if let cached = cache[NaiveKey(op: op, run: run)] { return cached }
        if run > 0, let first = cache[NaiveKey(op: op, run: 0)], first.outcome != .measured { return first }
        let naive = measure()
        cache[NaiveKey(op: op, run: run)] = naive
        return naive
    }

    // MARK: Queries

    private func query(_ query: RelativeQuery, _ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache, run: Int) -> Measurement {
        let op = BenchOperation.query(query)
        let w = work
        let (a, b) = query.inputs(w.inputs, count: n)
        if query == .convertPoint {
            w.prepareGeometry(layer.implementation)
            if w.naiveBuildStopped == nil { w.prepareGeometry(.naive) }
        }
        // Every implementation gets its own handles, gathered before timing (after the
        // geometry is set: a copy of the tree taken before would share the columns and be
        // copied on the first write). The full answer to the first query is kept, not
        // digested inside the timing, to be compared after.
        let (arena, first) = switch layer {
        case .core: w.coreArm(query, a, b).time(query, count: n, minimum: minimum)
        case .facade: w.facadeArm(query, a, b).time(query, count: n, minimum: minimum)
        }

        let naive = naiveSide(op, &cache, run: run) {
            guard op.isWholeTree else {
                return Self.naiveQuery(query, work: w, a: a, b: b, minimum: minimum)
            }
            note("\(op.rawValue): naive core in a child process (budget \(options.naiveBudget) s); it copies a group on every append, as the original does, so large groups take long")
            var naive = NaiveWorker.run(op, work: w, options: options, budget: .seconds(options.naiveBudget), scratch: scratch)
            switch naive.outcome {
            case .stoppedByBudget:
                note("\(op.rawValue): the naive core did not finish one query within \(options.naiveBudget) s; its time is a lower bound; the arena's answer is checked against a linear-time walk of the naive tree instead")
                naive.firstAnswer = NaiveWorker.referenceAnswer(op, work: w)
            case .failed(let reason):
                note("error: \(op.rawValue): \(reason)")
            case .measured, .notBuilt:
                break
            }
            return naive
        }
        return (arena, first, naive)
    }

    // MARK: The naive core's side of each query

    /// The naive core's answers to the queries with small answers, timed in this process.
    static func naiveQuery(_ query: RelativeQuery, work w: Workload, a: [Int32], b: [Int32], minimum: Duration) -> NaiveMeasurement {
        precondition(!query.isWholeTree, "\(query) is measured in a child process (naiveWholeTree)")
        let (sample, first) = w.naiveArm(query, a, b).time(query, count: a.count, minimum: minimum)
        return NaiveMeasurement(sample: sample, firstAnswer: first, outcome: .measured)
    }

    /// The naive core's whole-tree grouping `query` from `root`, timed (in the child process
    /// of ``NaiveWorker``), with the digest of its first whole answer.
    static func naiveWholeTree(
        _ query: RelativeQuery, root: NaiveView, tags: [Int], types: [NaiveView.Type], handle: @escaping (NaiveView) -> Int, count n: Int, minimum: Duration
    ) -> (Sample, UInt64?) {
        precondition(query.isWholeTree, "\(query) is not a whole-tree grouping")
        let arm = QueryArm(
            implementation: NaiveQuerying(), a: Array(repeating: root, count: n), b: [], tags: tags, types: types,
            handle: handle, found: Answers.identity, numberFound: { $0 })
        return arm.time(query, count: n, minimum: minimum)
    }

    /// The key under which the naive core's whole-tree grouping `query` puts a view
    /// (digested as ``Answers`` digests keys), or `nil`: the reference walk's key
    /// (``NaiveWorker/referenceAnswer(_:work:)``).
    static func naiveReferenceKey(_ query: RelativeQuery, work w: Workload) -> (NaiveView) -> UInt64? {
        guard case .group(.descendants, let key) = query else { preconditionFailure("\(query) is not a whole-tree grouping") }
        switch key {
        case .tags:
            let tags = w.tags
            return { tags.contains($0.tag) ? Answers.tag($0.tag) : nil }
        case .types:
            let types = w.typeIndices.map { ObjectIdentifier(StockCatalog.naiveViews[$0]) }
            return { types.contains(ObjectIdentifier(type(of: $0))) ? Answers.name(String(describing: type(of: $0))) : nil }
        case .closure:
            return { RelativeQuery.closureKey($0.tag).map(Answers.tag) }
        }
    }

    // MARK: Layout

    /// Aligns views `1 ... n` in node order, each to its random earlier view (see
    /// ``BenchLayout``), once, until the time is up or the pass ends; the digest of each
    /// alignment is the view's new frame origin. Changes the frames, so it runs after
    /// `convertPoint`; each implementation starts from the same seeded frames.
    private func layout(_ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> Measurement {
        let w = work
        let targets = BenchLayout.targets(count: w.count, seed: w.seed)
        w.prepareGeometry(layer.implementation)
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
        let naive = naiveSide(.layout, &cache) {
            w.prepareGeometry(.naive)
            let naive = w.naive
            let sample = measure(count: n, minimum: minimum, cycle: false) { i in
                BenchLayout.alignNaive(naive[i + 1], to: naive[Int(targets[i + 1])])
            }
            return NaiveMeasurement(sample: sample, firstAnswer: nil, outcome: .measured)
        }
        return (arena, nil, naive)
    }

    // MARK: Interleaved mutation

    /// Alternates a move of a random subtree under a random node that is not in it (checked
    /// by the implementation itself) with one `isRelativeAncestor` query. Runs the sequence
    /// once, in order, until the time is up or it ends; mutates the trees, so it runs last.
    private func interleaved(_ n: Int, _ layer: BenchLayer, _ cache: inout NaiveCache) -> Measurement {
        let w = work
        let (x, y, qa, qb) = w.inputs.mutationSteps(n)
        let arena: Sample
        w.restructured.insert(layer.implementation)
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
            arena = Self.interleave(w.views, x, y, qa, qb, count: n, minimum: minimum)
        }
        let naive = naiveSide(.interleavedMutation, &cache) {
            w.restructured.insert(.naive)
            let sample = Self.interleave(w.naive, x, y, qa, qb, count: n, minimum: minimum)
            return NaiveMeasurement(sample: sample, firstAnswer: nil, outcome: .measured)
        }
        return (arena, nil, naive)
    }

    /// The interleaved mutation on view objects, the facade's or the naive core's: a move of
    /// `views[x[i]]` under `views[y[i]]` unless that would make a cycle, then one query.
    /// Always inlined, so that each call is specialized for its class.
    @inline(__always)
    private static func interleave<V: ChurnableView>(
        _ views: [V], _ x: [Int32], _ y: [Int32], _ qa: [Int32], _ qb: [Int32], count n: Int, minimum: Duration
    ) -> Sample where V.Relative == V {
        measure(count: n, minimum: minimum, cycle: false) { i in
            let (vx, vy) = (views[Int(x[i])], views[Int(y[i])])
            var moved: UInt64 = 0
            if vx !== vy && !vx.isRelativeAncestor(of: vy) {
                vy.addSubview(vx)
                moved = 2
            }
            return moved | (views[Int(qa[i])].isRelativeAncestor(of: views[Int(qb[i])]) ? 1 : 0)
        }
    }
}
