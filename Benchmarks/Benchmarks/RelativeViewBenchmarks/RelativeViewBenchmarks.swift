import Benchmark
import RelativeView
import RelativeViewFixtures
import RelativeViewImport
import RelativeViewNaive

// The operations of `relative-view-bench` (Sources/relative-view-bench), on the same tree and
// the same queries as `relative-view-bench --nodes 100000` (random tree, seed 1, tags [7, 13],
// types Button and Label), each on the arena core (`ViewTree`/`NodeID`), the `View` facade
// and the naive core (`NaiveView`): every op of the table the CLI reads (`RelativeQuery`), through
// one generic registration (`registerQuery`) whose switch is exhaustive, so that an op
// added there does not build here until it is measured.
// Trees and query inputs are built in each benchmark's setup closure, outside the measured
// region.

// MARK: The workload

let nodeCount = 100_000
let treeSeed: UInt64 = 1
let groupTags = [7, 13]
let groupTypeNames = ["Button", "Label"]
/// Query inputs per O(1)-answer operation (the CLI's default query count); a benchmark
/// iteration takes the next `scaledIterations` of them, wrapping around.
let queryCount = 1_000_000
/// Steps of the interleaved mutation sequence (the CLI's default): the warm-up iteration plus
/// `mutationIterations` measured ones of 1,000 steps each run it once, in order.
let mutationCount = 100_000
let mutationIterations = mutationCount / 1_000 - 1

let treeSpec = TreeSpec(shape: .random, nodes: nodeCount, seed: treeSeed)

/// The CLI's seeded query inputs (`QueryInputs`, shared through RelativeViewFixtures).
let inputs = QueryInputs(spec: treeSpec, seed: treeSeed)

/// The two inputs of each query of `op`, as node numbers, from the table the CLI reads too.
func queryInputs(_ op: RelativeQuery) -> (a: [Int32], b: [Int32]) {
    op.inputs(inputs, count: queryCount)
}

/// The steps of the interleaved mutation (as the CLI's).
func mutationInputs() -> (x: [Int32], y: [Int32], qa: [Int32], qb: [Int32]) {
    inputs.mutationSteps(mutationCount)
}

/// The catalog indices of the grouped types.
func groupTypeIndices() -> [Int] {
    groupTypeNames.compactMap(StockCatalog.index(named:))
}

/// The first input of this iteration: iterations take consecutive windows of
/// `scaledIterations` inputs out of `count`, wrapping around.
func firstInput(_ benchmark: Benchmark, _ count: Int) -> Int {
    let scale = benchmark.scaledIterations.count
    return (benchmark.currentIteration % (count / scale)) * scale
}

// MARK: Trees (as `Workload.buildOnce`)

/// The arena core's tree; node `i` is `ids[i]`.
final class CoreTree {
    var tree: ViewTree
    let ids: [NodeID]

    init() {
        var tree = ViewTree(minimumCapacity: nodeCount)
        var ids: [NodeID] = []
        ids.reserveCapacity(nodeCount)
        treeSpec.buildCore(into: &tree, ids: &ids, typeIDs: StockCatalog.typeIDs())
        tree.compactIndex()  // as the CLI's build
        self.tree = tree
        self.ids = ids
    }
}

/// The facade's views; node `i` is `views[i]` (the array keeps the root alive).
func buildFacadeViews() -> [View] {
    var views: [View] = []
    views.reserveCapacity(nodeCount)
    treeSpec.buildFacade(into: &views)
    views.first?.compactIndex()  // as the CLI's build
    return views
}

/// The naive core's views; node `i` is `naive[i]`.
func buildNaiveViews() -> [NaiveView] {
    var naive: [NaiveView] = []
    naive.reserveCapacity(nodeCount)
    treeSpec.buildNaive(into: &naive)
    return naive
}

// MARK: Configurations (computed: `Benchmark.Configuration` is not `Sendable`)

var queryMetrics: [BenchmarkMetric] { [.wallClock, .throughput, .mallocCountTotal] }

/// Queries with small answers: 1,000 queries per iteration (times shown per query).
var fastQuery: Benchmark.Configuration {
    .init(metrics: queryMetrics, scalingFactor: .kilo, maxDuration: .seconds(1), maxIterations: 2_000)
}

/// One query per iteration, for the naive core's O(subtree) `isRelativeDescendant`.
var slowQuery: Benchmark.Configuration {
    .init(metrics: queryMetrics, scalingFactor: .one, maxDuration: .seconds(1), maxIterations: 2_000)
}

/// One whole-tree grouping from the root per iteration.
var wholeTree: Benchmark.Configuration {
    .init(metrics: queryMetrics, scalingFactor: .one, maxDuration: .seconds(1), maxIterations: 200)
}

/// The naive core's whole-tree groupings copy a group on every append (grouping by types
/// takes seconds at 100,000 nodes): few iterations.
var naiveWholeTree: Benchmark.Configuration {
    .init(metrics: queryMetrics, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 5)
}

/// One whole build of the 100,000-node tree per iteration.
var buildConfiguration: Benchmark.Configuration {
    .init(metrics: queryMetrics + [.peakMemoryResident], scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 20)
}

/// 1,000 mutation steps per iteration; the warm-up and the measured iterations run the whole sequence once.
var mutationConfiguration: Benchmark.Configuration {
    .init(
        metrics: queryMetrics, timeUnits: .nanoseconds, scalingFactor: .kilo,
        maxDuration: .seconds(2), maxIterations: mutationIterations)
}

// MARK: Benchmarks

let benchmarks: @Sendable () -> Void = {
    importBenchmarks()
    buildBenchmarks()
    queryBenchmarks()
    mutationBenchmarks()
}

/// One import per iteration of a seeded document held in memory (`SampleDocuments`, the
/// shapes of `scripts/make-documents.py`), into a `ViewTree` with its index: XML through
/// the reader's fast path and through libxml2 alone, and JSON. Throughput is in nodes.
var importConfiguration: Benchmark.Configuration {
    .init(metrics: queryMetrics + [.peakMemoryResident], scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 20)
}

func importBenchmarks() {
    for (name, fastPath) in [("import/xml", true), ("import/xml-libxml2", false)] {
        Benchmark(name, configuration: importConfiguration) { benchmark, document in
            for _ in benchmark.scaledIterations {
                var builder = ViewTreeBuilder(minimumCapacity: document.withUnsafeBufferPointer(MarkupTreeReader.nodeBound(of:)))
                try MarkupTreeReader(fastPath: fastPath, content: .skeleton).read(document, path: "sample.xml", dialect: .xml, into: &builder)
                blackHole(builder.finish().count)
            }
        } setup: {
            SampleDocuments.xml(elements: nodeCount, seed: treeSeed)
        }
    }
    Benchmark("import/json", configuration: importConfiguration) { benchmark, document in
        for _ in benchmark.scaledIterations {
            blackHole(try TreeImporter(content: .skeleton).importTree(document, format: .json, path: "sample.json").count)
        }
    } setup: {
        SampleDocuments.json(values: nodeCount, seed: treeSeed)
    }
}

func buildBenchmarks() {
    Benchmark("build/core", configuration: buildConfiguration) { benchmark in
        let typeIDs = StockCatalog.typeIDs()
        var ids: [NodeID] = []
        ids.reserveCapacity(nodeCount)
        benchmark.startMeasurement()
        var tree = ViewTree(minimumCapacity: nodeCount)
        treeSpec.buildCore(into: &tree, ids: &ids, typeIDs: typeIDs)
        tree.compactIndex()
        benchmark.stopMeasurement()
        blackHole(tree)
        blackHole(ids)
    }
    Benchmark("build/facade", configuration: buildConfiguration) { benchmark in
        var views: [View] = []
        views.reserveCapacity(nodeCount)
        benchmark.startMeasurement()
        treeSpec.buildFacade(into: &views)
        views.first?.compactIndex()
        benchmark.stopMeasurement()
        blackHole(views)
    }
    Benchmark("build/naive", configuration: buildConfiguration) { benchmark in
        var naive: [NaiveView] = []
        naive.reserveCapacity(nodeCount)
        benchmark.startMeasurement()
        treeSpec.buildNaive(into: &naive)
        benchmark.stopMeasurement()
        blackHole(naive)
    }
}

// MARK: Queries: every op of the shared table (`RelativeQuery`) on every implementation

/// The three implementations, as the benchmarks' names give them.
enum Implementation: String, CaseIterable {
    case core, facade, naive
}

/// How many queries an iteration of `op` asks, and for how long, from what the table says
/// of each query: a whole-tree grouping is slow on every implementation, a query whose naive
/// answer walks a subtree is slow on the naive core.
func configuration(_ op: RelativeQuery, _ implementation: Implementation) -> Benchmark.Configuration {
    if op.isWholeTree { return implementation == .naive ? naiveWholeTree : wholeTree }
    return implementation == .naive && op.naiveWalksASubtree ? slowQuery : fastQuery
}

/// Gives `views[i]` node `i`'s seeded frame and bounds origin (the CLI's geometry).
func setFrames<V>(of views: [V], _ set: (V, CGRect, CGPoint) -> Void) {
    for (i, g) in QueryGeometry.frames(count: nodeCount, seed: treeSeed).enumerated() {
        set(views[i], CGRect(x: g.origin.x, y: g.origin.y, width: g.size.x, height: g.size.y), CGPoint(x: g.bounds.x, y: g.bounds.y))
    }
}

/// One implementation's inputs for `op`: its adaptor, each query's nodes (the root for a
/// whole-tree grouping), the grouped types' keys, and what keeps the tree alive.
struct QueryInputsOf<I: RelativeQuerying> {
    let implementation: I
    let a: [I.Node]
    let b: [I.Node]
    let types: I.TypeKeys
    let keepAlive: Any

    init(_ op: RelativeQuery, _ implementation: I, nodes: [I.Node], keepAlive: Any) {
        let (na, nb) = queryInputs(op)
        func pick(_ numbers: [Int32]) -> [I.Node] {
            op.isWholeTree ? Array(repeating: nodes[0], count: numbers.count) : numbers.map { nodes[Int($0)] }
        }
        self.implementation = implementation
        a = pick(na)
        b = pick(nb)
        types = implementation.typeKeys(groupTypeIndices())
        self.keepAlive = keepAlive
    }
}

/// One benchmark's iterations of a query, each answer handed to `blackHole`.
struct BenchmarkLoop<Node>: QueryLoop {
    let a: [Node]
    let b: [Node]
    let base: Int
    let iterations: Range<Int>

    @inline(__always)
    func run(_ ask: (Node, Node) -> QueryResult<Node>) {
        for k in iterations { blackHole(ask(a[base + k], b[base + k])) }
    }
}

/// Registers `op` on one implementation: one code path for the three, specialized for each
/// adaptor, the answers handed to `blackHole`.
func registerQuery<I: RelativeQuerying>(_ op: RelativeQuery, _ name: Implementation, setup: @escaping () -> QueryInputsOf<I>) {
    Benchmark("\(op)/\(name.rawValue)", configuration: configuration(op, name)) { benchmark, q in
        // A query about one node is asked with `a` in both places.
        let loop = BenchmarkLoop(a: q.a, b: q.b.isEmpty ? q.a : q.b, base: firstInput(benchmark, queryCount), iterations: benchmark.scaledIterations)
        q.implementation.asking(op, tags: groupTags, types: q.types, in: loop)
    } setup: {
        setup()
    }
}

/// The inputs of `op` on views of one class (the facade's or the naive core's), with the
/// seeded geometry for `convertPoint`, which `place` gives a view.
func viewInputs<V: RelativeViewAPI>(
    _ op: RelativeQuery, _ views: [V], _ querying: ViewQuerying<V>, place: (V, CGRect, CGPoint) -> Void
) -> QueryInputsOf<ViewQuerying<V>> where V.Relative == V {
    if op == .convertPoint { setFrames(of: views, place) }
    return QueryInputsOf(op, querying, nodes: views, keepAlive: views)
}

/// Every op of the table on the core, the facade and the naive core, each on its own tree
/// (with the seeded geometry for `convertPoint`, as the CLI gives it).
func queryBenchmarks() {
    for op in RelativeQuery.allCases {
        registerQuery(op, .core) {
            let core = CoreTree()
            if op == .convertPoint {
                for (i, g) in QueryGeometry.frames(count: nodeCount, seed: treeSeed).enumerated() {
                    core.tree.setFrameOrigin(g.origin, of: core.ids[i])
                    core.tree.setFrameSize(g.size, of: core.ids[i])
                    core.tree.setBoundsOrigin(g.bounds, of: core.ids[i])
                }
            }
            return QueryInputsOf(op, CoreQuerying(core.tree), nodes: core.ids, keepAlive: core)
        }
        registerQuery(op, .facade) {
            viewInputs(op, buildFacadeViews(), FacadeQuerying()) { $0.frame = $1; $0.bounds.origin = $2 }
        }
        registerQuery(op, .naive) {
            viewInputs(op, buildNaiveViews(), NaiveQuerying()) { $0.frame = $1; $0.bounds.origin = $2 }
        }
    }
}

// MARK: Interleaved mutation

/// Alternates a move of a random subtree under a random node that is not in it (checked by
/// the implementation itself) with one `isRelativeAncestor` query, as the CLI does. The tree
/// changes from iteration to iteration: each iteration runs the next 1,000 steps.
func mutationBenchmarks() {
    Benchmark("interleavedMutation/core", configuration: mutationConfiguration) { benchmark, state in
        let (core, m) = state
        let ids = core.ids
        let base = firstInput(benchmark, mutationCount)
        for k in benchmark.scaledIterations {
            let i = base + k
            let (nx, ny) = (ids[Int(m.x[i])], ids[Int(m.y[i])])
            var moved: UInt64 = 0
            if nx != ny && !core.tree.isAncestor(nx, of: ny) {
                core.tree.append(nx, to: ny)
                moved = 2
            }
            blackHole(moved | (core.tree.isAncestor(ids[Int(m.qa[i])], of: ids[Int(m.qb[i])]) ? 1 : 0))
        }
    } setup: { (CoreTree(), mutationInputs()) }

    Benchmark("interleavedMutation/facade", configuration: mutationConfiguration) { benchmark, state in
        let (views, m) = state
        let base = firstInput(benchmark, mutationCount)
        for k in benchmark.scaledIterations {
            let i = base + k
            let (vx, vy) = (views[Int(m.x[i])], views[Int(m.y[i])])
            var moved: UInt64 = 0
            if vx !== vy && !vx.isRelativeAncestor(of: vy) {
                vy.addSubview(vx)
                moved = 2
            }
            blackHole(moved | (views[Int(m.qa[i])].isRelativeAncestor(of: views[Int(m.qb[i])]) ? 1 : 0))
        }
    } setup: { (buildFacadeViews(), mutationInputs()) }

    Benchmark("interleavedMutation/naive", configuration: mutationConfiguration) { benchmark, state in
        let (naive, m) = state
        let base = firstInput(benchmark, mutationCount)
        for k in benchmark.scaledIterations {
            let i = base + k
            let (vx, vy) = (naive[Int(m.x[i])], naive[Int(m.y[i])])
            var moved: UInt64 = 0
            if vx !== vy && !vx.isRelativeAncestor(of: vy) {
                vy.addSubview(vx)
                moved = 2
            }
            blackHole(moved | (naive[Int(m.qa[i])].isRelativeAncestor(of: naive[Int(m.qb[i])]) ? 1 : 0))
        }
    } setup: { (buildNaiveViews(), mutationInputs()) }
}
