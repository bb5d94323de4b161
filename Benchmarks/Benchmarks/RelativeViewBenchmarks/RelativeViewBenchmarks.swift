import Benchmark
import RelativeView
import RelativeViewFixtures
import RelativeViewImport
import RelativeViewNaive

// The operations of `relative-view-bench` (Sources/relative-view-bench), on the same tree and
// the same queries as `relative-view-bench --nodes 100000` (random tree, seed 1, tags [7, 13],
// types Button and Label), each on the arena core (`ViewTree`/`NodeID`), the `View` facade
// and the naive core (`NaiveView`). Trees and query inputs are built in each benchmark's
// setup closure, outside the measured region.

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
func queryInputs(_ op: BenchQuery) -> (a: [Int32], b: [Int32]) {
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

/// The core type ids of the grouped types, keyed by the facade's class names (as the CLI does).
func coreTypeKeys() -> [TypeID: String] {
    let typeIDs = StockCatalog.typeIDs()
    return Dictionary(groupTypeIndices().map { (typeIDs[$0], StockCatalog.names[$0]) }, uniquingKeysWith: { a, _ in a })
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
    coreBenchmarks()
    facadeBenchmarks()
    naiveBenchmarks()
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
                try MarkupTreeReader(fastPath: fastPath).read(document, path: "sample.xml", dialect: .xml, into: &builder)
                blackHole(builder.finish().count)
            }
        } setup: {
            SampleDocuments.xml(elements: nodeCount, seed: treeSeed)
        }
    }
    Benchmark("import/json", configuration: importConfiguration) { benchmark, document in
        for _ in benchmark.scaledIterations {
            blackHole(try TreeImporter().importTree(document, format: .json, path: "sample.json").count)
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

/// The core's inputs: the tree and each query's `NodeID`s.
struct CoreQueries {
    let core: CoreTree
    let a: [NodeID]
    let b: [NodeID]

    init(_ op: BenchQuery) {
        let core = CoreTree()
        let ids = core.ids
        let (na, nb) = queryInputs(op)
        self.core = core
        a = na.map { ids[Int($0)] }
        b = nb.map { ids[Int($0)] }
    }
}

func coreBenchmarks() {
    Benchmark("\(BenchQuery.isRelativeAncestor)/core", configuration: fastQuery) { benchmark, q in
        let (tree, a, b, base) = (q.core.tree, q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.isAncestor(a[base + k], of: b[base + k])) }
    } setup: { CoreQueries(.isRelativeAncestor) }

    Benchmark("\(BenchQuery.isRelativeDescendant)/core", configuration: fastQuery) { benchmark, q in
        let (tree, a, b, base) = (q.core.tree, q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.isDescendant(a[base + k], of: b[base + k])) }
    } setup: { CoreQueries(.isRelativeDescendant) }

    Benchmark("\(BenchQuery.findFirstAncestorByTags)/core", configuration: fastQuery) { benchmark, q in
        let (tree, a, base) = (q.core.tree, q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.firstAncestor(of: a[base + k], withTags: groupTags)) }
    } setup: { CoreQueries(.findFirstAncestorByTags) }

    Benchmark("\(BenchQuery.groupAncestorsByTags)/core", configuration: fastQuery) { benchmark, q in
        let (tree, a, base) = (q.core.tree, q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.groupAncestors(of: a[base + k], byTags: groupTags)) }
    } setup: { CoreQueries(.groupAncestorsByTags) }

    Benchmark("\(BenchQuery.groupDescendantsByTags)/core", configuration: wholeTree) { benchmark, core in
        let (tree, root) = (core.tree, core.ids[0])
        for _ in benchmark.scaledIterations { blackHole(tree.groupDescendants(of: root, byTags: groupTags)) }
    } setup: { CoreTree() }

    Benchmark("\(BenchQuery.groupDescendantsByTypes)/core", configuration: wholeTree) { benchmark, state in
        let (core, coreTypes) = state
        let (tree, root) = (core.tree, core.ids[0])
        for _ in benchmark.scaledIterations { blackHole(tree.groupDescendants(of: root, keyingTypes: coreTypes)) }
    } setup: { (CoreTree(), coreTypeKeys()) }

    Benchmark("\(BenchQuery.groupDescendantsByClosure)/core", configuration: wholeTree) { benchmark, core in
        let (tree, root) = (core.tree, core.ids[0])
        for _ in benchmark.scaledIterations { blackHole(tree.groupDescendants(of: root) { BenchQuery.closureKey(tree.tag(of: $0)) }) }
    } setup: { CoreTree() }

    Benchmark("\(BenchQuery.isRelativeSibling)/core", configuration: fastQuery) { benchmark, q in
        let (tree, a, b, base) = (q.core.tree, q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.isSibling(a[base + k], of: b[base + k])) }
    } setup: { CoreQueries(.isRelativeSibling) }

    Benchmark("\(BenchQuery.groupSiblingsByTags)/core", configuration: fastQuery) { benchmark, q in
        let (tree, a, base) = (q.core.tree, q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.groupSiblings(of: a[base + k], byTags: groupTags)) }
    } setup: { CoreQueries(.groupSiblingsByTags) }

    Benchmark("\(BenchQuery.groupSiblingsByTypes)/core", configuration: fastQuery) { benchmark, state in
        let (q, coreTypes) = state
        let (tree, a, base) = (q.core.tree, q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(tree.groupSiblings(of: a[base + k], keyingTypes: coreTypes)) }
    } setup: { (CoreQueries(.groupSiblingsByTypes), coreTypeKeys()) }
}

/// The facade's inputs: every view of the tree (keeping it alive) and each query's views.
struct FacadeQueries {
    let views: [View]
    let a: [View]
    let b: [View]

    init(_ op: BenchQuery) {
        let views = buildFacadeViews()
        let (na, nb) = queryInputs(op)
        self.views = views
        a = na.map { views[Int($0)] }
        b = nb.map { views[Int($0)] }
    }
}

func facadeBenchmarks() {
    Benchmark("\(BenchQuery.isRelativeAncestor)/facade", configuration: fastQuery) { benchmark, q in
        let (a, b, base) = (q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].isRelativeAncestor(of: b[base + k])) }
    } setup: { FacadeQueries(.isRelativeAncestor) }

    Benchmark("\(BenchQuery.isRelativeDescendant)/facade", configuration: fastQuery) { benchmark, q in
        let (a, b, base) = (q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].isRelativeDescendant(of: b[base + k])) }
    } setup: { FacadeQueries(.isRelativeDescendant) }

    Benchmark("\(BenchQuery.findFirstAncestorByTags)/facade", configuration: fastQuery) { benchmark, q in
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].findFirstAncestor(by: groupTags)) }
    } setup: { FacadeQueries(.findFirstAncestorByTags) }

    Benchmark("\(BenchQuery.groupAncestorsByTags)/facade", configuration: fastQuery) { benchmark, q in
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].groupAncestors(by: groupTags)) }
    } setup: { FacadeQueries(.groupAncestorsByTags) }

    Benchmark("\(BenchQuery.groupDescendantsByTags)/facade", configuration: wholeTree) { benchmark, views in
        let root = views[0]
        for _ in benchmark.scaledIterations { blackHole(root.groupDescendants(by: groupTags)) }
    } setup: { buildFacadeViews() }

    Benchmark("\(BenchQuery.groupDescendantsByTypes)/facade", configuration: wholeTree) { benchmark, state in
        let (views, viewTypes) = state
        let root = views[0]
        for _ in benchmark.scaledIterations { blackHole(root.groupDescendants(by: viewTypes)) }
    } setup: { (buildFacadeViews(), groupTypeIndices().map { StockCatalog.views[$0] }) }

    Benchmark("\(BenchQuery.groupDescendantsByClosure)/facade", configuration: wholeTree) { benchmark, views in
        let root = views[0]
        for _ in benchmark.scaledIterations { blackHole(root.groupDescendants { BenchQuery.closureKey($0.tag) }) }
    } setup: { buildFacadeViews() }

    Benchmark("\(BenchQuery.isRelativeSibling)/facade", configuration: fastQuery) { benchmark, q in
        let (a, b, base) = (q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].isRelativeSibling(of: b[base + k])) }
    } setup: { FacadeQueries(.isRelativeSibling) }

    Benchmark("\(BenchQuery.groupSiblingsByTags)/facade", configuration: fastQuery) { benchmark, q in
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].groupSiblings(by: groupTags)) }
    } setup: { FacadeQueries(.groupSiblingsByTags) }

    Benchmark("\(BenchQuery.groupSiblingsByTypes)/facade", configuration: fastQuery) { benchmark, state in
        let (q, types) = state
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].groupSiblings(by: types)) }
    } setup: { (FacadeQueries(.groupSiblingsByTypes), groupTypeIndices().map { StockCatalog.views[$0] }) }
}

/// The naive core's inputs: every view of the tree (keeping it alive) and each query's views.
struct NaiveQueries {
    let naive: [NaiveView]
    let a: [NaiveView]
    let b: [NaiveView]

    init(_ op: BenchQuery) {
        let naive = buildNaiveViews()
        let (na, nb) = queryInputs(op)
        self.naive = naive
        a = na.map { naive[Int($0)] }
        b = nb.map { naive[Int($0)] }
    }
}

func naiveBenchmarks() {
    Benchmark("\(BenchQuery.isRelativeAncestor)/naive", configuration: fastQuery) { benchmark, q in
        let (a, b, base) = (q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].isRelativeAncestor(of: b[base + k])) }
    } setup: { NaiveQueries(.isRelativeAncestor) }

    // Searches the candidate ancestor's whole subtree: one query per iteration.
    Benchmark("\(BenchQuery.isRelativeDescendant)/naive", configuration: slowQuery) { benchmark, q in
        let (a, b, base) = (q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].isRelativeDescendant(of: b[base + k])) }
    } setup: { NaiveQueries(.isRelativeDescendant) }

    Benchmark("\(BenchQuery.findFirstAncestorByTags)/naive", configuration: fastQuery) { benchmark, q in
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].findFirstAncestor(by: groupTags)) }
    } setup: { NaiveQueries(.findFirstAncestorByTags) }

    Benchmark("\(BenchQuery.groupAncestorsByTags)/naive", configuration: fastQuery) { benchmark, q in
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].groupAncestors(by: groupTags)) }
    } setup: { NaiveQueries(.groupAncestorsByTags) }

    Benchmark("\(BenchQuery.groupDescendantsByTags)/naive", configuration: naiveWholeTree) { benchmark, naive in
        let root = naive[0]
        for _ in benchmark.scaledIterations { blackHole(root.groupDescendants(by: groupTags)) }
    } setup: { buildNaiveViews() }

    Benchmark("\(BenchQuery.groupDescendantsByTypes)/naive", configuration: naiveWholeTree) { benchmark, state in
        let (naive, types) = state
        let root = naive[0]
        for _ in benchmark.scaledIterations { blackHole(root.groupDescendants(by: types)) }
    } setup: { (buildNaiveViews(), groupTypeIndices().map { StockCatalog.naiveViews[$0] }) }

    Benchmark("\(BenchQuery.groupDescendantsByClosure)/naive", configuration: naiveWholeTree) { benchmark, naive in
        let root = naive[0]
        for _ in benchmark.scaledIterations { blackHole(root.groupDescendants { BenchQuery.closureKey($0.tag) }) }
    } setup: { buildNaiveViews() }

    Benchmark("\(BenchQuery.isRelativeSibling)/naive", configuration: fastQuery) { benchmark, q in
        let (a, b, base) = (q.a, q.b, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].isRelativeSibling(of: b[base + k])) }
    } setup: { NaiveQueries(.isRelativeSibling) }

    Benchmark("\(BenchQuery.groupSiblingsByTags)/naive", configuration: fastQuery) { benchmark, q in
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].groupSiblings(by: groupTags)) }
    } setup: { NaiveQueries(.groupSiblingsByTags) }

    Benchmark("\(BenchQuery.groupSiblingsByTypes)/naive", configuration: fastQuery) { benchmark, state in
        let (q, types) = state
        let (a, base) = (q.a, firstInput(benchmark, queryCount))
        for k in benchmark.scaledIterations { blackHole(a[base + k].groupSiblings(by: types)) }
    } setup: { (NaiveQueries(.groupSiblingsByTypes), groupTypeIndices().map { StockCatalog.naiveViews[$0] }) }
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
