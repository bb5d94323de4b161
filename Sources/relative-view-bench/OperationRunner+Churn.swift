import Foundation
import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// The latency of one implementation's `churn` run, in nanoseconds, with the clock's own
/// cost taken out (see ``ChurnClock``).
struct ChurnLatency: Encodable {
    /// Percentiles and maximum of the query that follows each mutation.
    var queryP50, queryP99, queryP999, queryMax: Double
    /// The slowest whole step (mutation and query).
    var stepMax: Double
    /// The p50 of the script's ancestor and descendant queries between the tree's first
    /// nodes, each timed alone as in the replay, on the tree at rest (before the replay,
    /// no mutation between them): what the churn's query p50 compares with.
    var restQueryP50: Double

    init(queries: [Double], steps: [Double], rest: [Double]) {
        let sorted = queries.sorted()
        queryP50 = Self.percentile(sorted, 0.5)
        queryP99 = Self.percentile(sorted, 0.99)
        queryP999 = Self.percentile(sorted, 0.999)
        queryMax = sorted.last ?? .nan
        stepMax = steps.max() ?? .nan
        restQueryP50 = Self.percentile(rest.sorted(), 0.5)
    }

    /// The `p` quantile of `sorted` (nearest rank), NaN when it is empty.
    private static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// Times the steps of `churn` one by one: three clock reads per step (before the mutation,
/// between it and the query, after the query), less what a read itself costs.
struct ChurnClock {
    private let clock = ContinuousClock()
    /// The median cost of one clock read, in nanoseconds, taken off every timed interval.
    let overhead: Double

    init() {
        var gaps: [Double] = []
        gaps.reserveCapacity(10_000)
        var last = clock.now
        for _ in 0 ..< 10_000 {
            let now = clock.now
            gaps.append(nanoseconds(now - last))
            last = now
        }
        gaps.sort()
        overhead = gaps[gaps.count / 2]
    }

    var now: ContinuousClock.Instant { clock.now }

    /// `to - from` in nanoseconds, less `reads` clock reads, never negative.
    func interval(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant, reads: Double) -> Double {
        max(0, nanoseconds(to - from) - reads * overhead)
    }
}

extension OperationRunner {
    /// The script's ancestor and descendant queries between nodes of the tree at the start
    /// (every one of them live before the replay), each timed alone with `clock` as the
    /// replay times them, with no mutation between: the latencies at rest.
    @inline(__always)
    func restLatencies(_ script: ChurnScript, _ clock: ChurnClock, _ ask: (ChurnStep.Query, Int32, Int32) -> Bool) -> [Double] {
        var rest: [Double] = []
        rest.reserveCapacity(script.steps.count)
        var yes = 0
        for step in script.steps where step.query != .groupSiblingsByTags && Int(max(step.a, step.b)) < script.firstNewNode {
            let t0 = clock.now
            let answer = ask(step.query, step.a, step.b)
            let t1 = clock.now
            if answer { yes += 1 }
            rest.append(clock.interval(t0, t1, reads: 1))
        }
        // Keep the answers observable, so that the queries are not optimized away.
        if yes < 0 { print(yes) }
        return rest
    }

    /// Replays the ``ChurnScript`` on the layer and on the naive core: each step one mutation
    /// and one query, each timed alone; the digest of every answer is compared.
    func churn(_ layer: BenchLayer, _ cache: inout NaiveCache) -> Measurement {
        let w = work
        let script = w.churnScript(steps: options.queryCount(for: .churn))
        w.restore(layer.implementation)
        let arena = layer == .core ? churnCore(script) : churnFacade(script)
        let naive = naiveSide(.churn, &cache) {
            w.restore(.naive)
            return churnNaive(script)
        }
        return (arena, nil, naive)
    }

    private func churnCore(_ script: ChurnScript) -> Sample {
        let w = work
        let tags = w.tags
        let clock = ChurnClock()
        // Node numbers of the core's slots: a removed leaf's slot goes to a later new leaf.
        var numberOfSlot = [Int](repeating: -1, count: w.tree.slotCount)
        for (k, id) in w.ids.enumerated() where w.tree.contains(id) { numberOfSlot[Int(id.index)] = k }
        // Room for every node the script makes, untimed, as this row always had (the tree no
        // longer needs it: its columns grow in place; `--unprepared-churn` reserves nothing),
        // and so that the handle table does not double within a step.
        w.tree.reserveCapacity(w.tree.slotCount + script.newNodes.count)
        w.ids.reserveCapacity(w.ids.count + script.newNodes.count)
        numberOfSlot.reserveCapacity(w.tree.slotCount + script.newNodes.count)
        let rest = restLatencies(script, clock) { query, a, b in
            query == .isRelativeAncestor ? w.tree.isAncestor(w.ids[Int(a)], of: w.ids[Int(b)]) : w.tree.isDescendant(w.ids[Int(a)], of: w.ids[Int(b)])
        }
        var (latency, digests) = Self.churnRecords(script)
        var next = script.firstNewNode
        for step in script.steps {
            var created: NodeID?
            let t0 = clock.now
            switch step.mutation {
            case .append(_, let p):
                let new = script.newNodes[next - script.firstNewNode]
                created = w.tree.appendChild(tag: new.tag, type: w.typeIDs[new.type], to: w.ids[Int(p)])
            case .insert(_, let p, let index):
                let new = script.newNodes[next - script.firstNewNode]
                let id = w.tree.makeNode(tag: new.tag, type: w.typeIDs[new.type])
                w.tree.insert(id, into: w.ids[Int(p)], at: Int(index))
                created = id
            case .remove(let leaf):
                w.tree.removeSubtree(w.ids[Int(leaf)])
            case .move(let x, let p):
                w.tree.append(w.ids[Int(x)], to: w.ids[Int(p)])
            case .exchange(let p, let i, let j):
                w.tree.exchangeChildren(of: w.ids[Int(p)], at: Int(i), Int(j))
            }
            // The query may ask about the new node.
            if let created { w.ids.append(created) }
            let t1 = clock.now
            var answer: UInt64 = 0
            var groups: [Int: [NodeID]]?
            switch step.query {
            case .isRelativeAncestor: answer = w.tree.isAncestor(w.ids[Int(step.a)], of: w.ids[Int(step.b)]) ? 1 : 0
            case .isRelativeDescendant: answer = w.tree.isDescendant(w.ids[Int(step.a)], of: w.ids[Int(step.b)]) ? 1 : 0
            case .groupSiblingsByTags: groups = w.tree.group(.siblings, of: w.ids[Int(step.a)], byTags: tags)
            }
            let t2 = clock.now
            latency.queries.append(clock.interval(t1, t2, reads: 1))
            latency.steps.append(clock.interval(t0, t2, reads: 2))
            // Bookkeeping, untimed: the new node's number, the answer's digest.
            if let created {
                if Int(created.index) >= numberOfSlot.count { numberOfSlot.append(contentsOf: repeatElement(-1, count: Int(created.index) + 1 - numberOfSlot.count)) }
                numberOfSlot[Int(created.index)] = next
                next += 1
            }
            if let groups { answer = Answers.full(groups, Answers.tag) { numberOfSlot[Int($0.index)] } }
            digests.append(answer)
        }
        return churnSample(.core, script, digests, latency, rest: rest)
    }

    private func churnFacade(_ script: ChurnScript) -> Sample {
        let w = work
        let (sample, added) = churnViews(FacadeChurn.self, views: w.views, script) { view, number in
            w.handleOfView[ObjectIdentifier(view)] = number
        } handle: { w.handle($0) }
        w.views += added
        return sample
    }

    private func churnNaive(_ script: ChurnScript) -> NaiveMeasurement {
        let w = work
        let (sample, added) = churnViews(NaiveChurn.self, views: w.naive, script) { view, number in
            w.handleOfNaive[ObjectIdentifier(view)] = number
        } handle: { w.handle($0) }
        w.naive += added
        return NaiveMeasurement(sample: sample, firstAnswer: nil, outcome: .measured)
    }

    /// The churn replay on a tree of view objects (the facade's or the naive core's), with
    /// UIKit's calls; `register` records a new view's node number, untimed. Returns the
    /// sample and the views it made, in node-number order.
    private func churnViews<Kind: ChurnViewKind>(
        _ kind: Kind.Type, views: [Kind.ViewType], _ script: ChurnScript,
        register: (Kind.ViewType, Int) -> Void, handle: (Kind.ViewType) -> Int
    ) -> (Sample, [Kind.ViewType]) {
        let tags = work.tags
        let clock = ChurnClock()
        var (latency, digests) = Self.churnRecords(script)
        var next = script.firstNewNode
        var added: [Kind.ViewType] = []
        func view(_ n: Int32) -> Kind.ViewType { Int(n) < views.count ? views[Int(n)] : added[Int(n) - views.count] }
        let rest = restLatencies(script, clock) { query, a, b in
            query == .isRelativeAncestor ? Kind.isRelativeAncestor(views[Int(a)], of: views[Int(b)]) : Kind.isRelativeDescendant(views[Int(a)], of: views[Int(b)])
        }
        for step in script.steps {
            var created: Kind.ViewType?
            let t0 = clock.now
            switch step.mutation {
            case .append(_, let p):
                let new = script.newNodes[next - script.firstNewNode]
                let v = Kind.make(new.type, tag: new.tag)
                Kind.add(v, to: view(p))
                created = v
            case .insert(_, let p, let index):
                let new = script.newNodes[next - script.firstNewNode]
                let v = Kind.make(new.type, tag: new.tag)
                Kind.insert(v, into: view(p), at: Int(index))
                created = v
            case .remove(let leaf):
                Kind.remove(view(leaf))
            case .move(let x, let p):
                Kind.add(view(x), to: view(p))
            case .exchange(let p, let i, let j):
                Kind.exchange(Int(i), Int(j), of: view(p))
            }
            // The query may ask about the new view.
            if let created { added.append(created) }
            let t1 = clock.now
            var answer: UInt64 = 0
            var groups: [Int: [Kind.ViewType]]?
            switch step.query {
            case .isRelativeAncestor: answer = Kind.isRelativeAncestor(view(step.a), of: view(step.b)) ? 1 : 0
            case .isRelativeDescendant: answer = Kind.isRelativeDescendant(view(step.a), of: view(step.b)) ? 1 : 0
            case .groupSiblingsByTags: groups = Kind.groupSiblings(of: view(step.a), by: tags)
            }
            let t2 = clock.now
            latency.queries.append(clock.interval(t1, t2, reads: 1))
            latency.steps.append(clock.interval(t0, t2, reads: 2))
            if let created {
                register(created, next)
                next += 1
            }
            if let groups { answer = Answers.full(groups, Answers.tag, handle) }
            digests.append(answer)
        }
        return (churnSample(Kind.implementation, script, digests, latency, rest: rest), added)
    }

    /// Appends one CSV line per step to the `--latency-trace` file, if one was asked for
    /// (after the replay, untimed): implementation, step, mutation, query ns, step ns.
    private func appendTrace(_ implementation: Implementation, _ script: ChurnScript, _ latency: (queries: [Double], steps: [Double])) {
        guard let path = options.latencyTrace else { return }
        var text = ""
        text.reserveCapacity(latency.steps.count * 32)
        for (k, step) in script.steps.enumerated() where k < latency.steps.count {
            text += "\(implementation.rawValue),\(k),\(step.mutation.name),\(Int(latency.queries[k].rounded())),\(Int(latency.steps[k].rounded()))\n"
        }
        do {
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? file.close() }
            try file.seekToEnd()
            try file.write(contentsOf: Data(text.utf8))
        } catch {
            note("error: --latency-trace \(path): could not append the \(implementation) trace: \(error.localizedDescription)")
        }
    }

    /// The sample of one implementation's replay (`implementation` names it in the trace),
    /// whose latencies also go to the `--latency-trace` file if one was asked for.
    /// The empty latencies and digests of a replay of `script`, with room for every step.
    private static func churnRecords(_ script: ChurnScript) -> (latency: (queries: [Double], steps: [Double]), digests: [UInt64]) {
        var latency = (queries: [Double](), steps: [Double]())
        latency.queries.reserveCapacity(script.steps.count)
        latency.steps.reserveCapacity(script.steps.count)
        return (latency, [UInt64](unsafeUninitializedCapacity: script.steps.count) { _, count in count = 0 })
    }

    private func churnSample(
        _ implementation: Implementation, _ script: ChurnScript, _ digests: [UInt64],
        _ latency: (queries: [Double], steps: [Double]), rest: [Double]
    ) -> Sample {
        appendTrace(implementation, script, latency)
        let total = latency.steps.reduce(0, +)
        var sample = Sample(nanosecondsPerOperation: total / Double(max(1, digests.count)), operations: digests.count, digests: digests)
        sample.latency = ChurnLatency(queries: latency.queries, steps: latency.steps, rest: rest)
        return sample
    }
}

/// The UIKit calls `churn` makes, for a tree of view objects: static, so that the replay is
/// specialized for each kind and calls the views directly.
protocol ChurnViewKind {
    associatedtype ViewType: ChurnableView where ViewType.Relative == ViewType
    /// The implementation (its name in `--latency-trace` lines).
    static var implementation: Implementation { get }
    /// A view of the stock class number `type` (``StockCatalog``).
    static func makeView(_ type: Int) -> ViewType
}

/// A view class's calls that a churn makes: `View`'s and `NaiveView`'s, which have the same names.
protocol ChurnableView: RelativeViewAPI {
    var tag: Int { get set }
    func addSubview(_ view: Relative)
    func insertSubview(_ view: Relative, at index: Int)
    func removeFromSuperview()
    func exchangeSubview(at index1: Int, withSubviewAt index2: Int)
}

extension View: ChurnableView {}
extension NaiveView: ChurnableView {}

extension ChurnViewKind {
    static func make(_ type: Int, tag: Int) -> ViewType {
        let v = makeView(type)
        v.tag = tag
        return v
    }
    static func add(_ view: ViewType, to parent: ViewType) { parent.addSubview(view) }
    static func insert(_ view: ViewType, into parent: ViewType, at index: Int) { parent.insertSubview(view, at: index) }
    static func remove(_ view: ViewType) { view.removeFromSuperview() }
    static func exchange(_ i: Int, _ j: Int, of parent: ViewType) { parent.exchangeSubview(at: i, withSubviewAt: j) }
    static func isRelativeAncestor(_ a: ViewType, of b: ViewType) -> Bool { a.isRelativeAncestor(of: b) }
    static func isRelativeDescendant(_ a: ViewType, of b: ViewType) -> Bool { a.isRelativeDescendant(of: b) }
    static func groupSiblings(of view: ViewType, by tags: [Int]) -> [Int: [ViewType]] { view.groupSiblings(by: tags) }
}

/// `churn` on the facade's `View`s.
enum FacadeChurn: ChurnViewKind {
    static var implementation: Implementation { .facade }
    static func makeView(_ type: Int) -> View { StockCatalog.makeView(type) }
}

/// `churn` on the naive core's `NaiveView`s.
enum NaiveChurn: ChurnViewKind {
    static var implementation: Implementation { .naive }
    static func makeView(_ type: Int) -> NaiveView { StockCatalog.makeNaive(type) }
}
