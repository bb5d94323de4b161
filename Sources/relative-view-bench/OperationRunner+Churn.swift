import Foundation
import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// The latency of one implementation's `churn` run, in nanoseconds, with the clock's own
/// cost taken out (see ``ChurnClock``).
struct ChurnLatency: Encodable {
    /// Percentiles and maximum of the query that follows each mutation.
    var queryP50: Double
    var queryP99: Double
    var queryP999: Double
    var queryMax: Double
    /// The slowest whole step (mutation and query).
    var stepMax: Double

    init(queries: [Double], steps: [Double]) {
        let sorted = queries.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        queryP50 = percentile(0.5)
        queryP99 = percentile(0.99)
        queryP999 = percentile(0.999)
        queryMax = sorted.last ?? .nan
        stepMax = steps.max() ?? .nan
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
    /// Replays the ``ChurnScript`` on the layer and on the naive core: each step one mutation
    /// and one query, each timed alone; the digest of every answer is compared.
    func churn(_ layer: BenchLayer, _ cache: inout NaiveCache) -> (Sample, UInt64?, NaiveMeasurement) {
        let w = work
        let script = w.churnScript(steps: options.queryCount(for: .churn))
        w.restore(layer.rawValue)
        let arena = layer == .core ? churnCore(script) : churnFacade(script)
        let naive = naiveSide(.churn, &cache) {
            w.restore("naive")
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
        var latency = (queries: [Double](), steps: [Double]())
        latency.queries.reserveCapacity(script.steps.count)
        latency.steps.reserveCapacity(script.steps.count)
        var digests: [UInt64] = []
        digests.reserveCapacity(script.steps.count)
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
            case .groupSiblingsByTags: groups = w.tree.groupSiblings(of: w.ids[Int(step.a)], byTags: tags)
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
        return churnSample(digests, latency)
    }

    private func churnFacade(_ script: ChurnScript) -> Sample {
        let w = work
        let tags = w.tags
        let clock = ChurnClock()
        var latency = (queries: [Double](), steps: [Double]())
        latency.queries.reserveCapacity(script.steps.count)
        latency.steps.reserveCapacity(script.steps.count)
        var digests: [UInt64] = []
        digests.reserveCapacity(script.steps.count)
        var next = script.firstNewNode
        let views = w.views
        var added: [View] = []
        func view(_ n: Int32) -> View { Int(n) < views.count ? views[Int(n)] : added[Int(n) - views.count] }
        for step in script.steps {
            var created: View?
            let t0 = clock.now
            switch step.mutation {
            case .append(_, let p):
                let new = script.newNodes[next - script.firstNewNode]
                let v = StockCatalog.makeView(new.type)
                v.tag = new.tag
                view(p).addSubview(v)
                created = v
            case .insert(_, let p, let index):
                let new = script.newNodes[next - script.firstNewNode]
                let v = StockCatalog.makeView(new.type)
                v.tag = new.tag
                view(p).insertSubview(v, at: Int(index))
                created = v
            case .remove(let leaf):
                view(leaf).removeFromSuperview()
            case .move(let x, let p):
                view(p).addSubview(view(x))
            case .exchange(let p, let i, let j):
                view(p).exchangeSubview(at: Int(i), withSubviewAt: Int(j))
            }
            // The query may ask about the new view.
            if let created { added.append(created) }
            let t1 = clock.now
            var answer: UInt64 = 0
            var groups: [Int: [View]]?
            switch step.query {
            case .isRelativeAncestor: answer = view(step.a).isRelativeAncestor(of: view(step.b)) ? 1 : 0
            case .isRelativeDescendant: answer = view(step.a).isRelativeDescendant(of: view(step.b)) ? 1 : 0
            case .groupSiblingsByTags: groups = view(step.a).groupSiblings(by: tags)
            }
            let t2 = clock.now
            latency.queries.append(clock.interval(t1, t2, reads: 1))
            latency.steps.append(clock.interval(t0, t2, reads: 2))
            if let created {
                w.handleOfView[ObjectIdentifier(created)] = next
                next += 1
            }
            if let groups { answer = Answers.full(groups, Answers.tag, w.handle) }
            digests.append(answer)
        }
        w.views += added
        return churnSample(digests, latency)
    }

    private func churnNaive(_ script: ChurnScript) -> NaiveMeasurement {
        let w = work
        let tags = w.tags
        let clock = ChurnClock()
        var latency = (queries: [Double](), steps: [Double]())
        latency.queries.reserveCapacity(script.steps.count)
        latency.steps.reserveCapacity(script.steps.count)
        var digests: [UInt64] = []
        digests.reserveCapacity(script.steps.count)
        var next = script.firstNewNode
        let views = w.naive
        var added: [NaiveView] = []
        func view(_ n: Int32) -> NaiveView { Int(n) < views.count ? views[Int(n)] : added[Int(n) - views.count] }
        for step in script.steps {
            var created: NaiveView?
            let t0 = clock.now
            switch step.mutation {
            case .append(_, let p):
                let new = script.newNodes[next - script.firstNewNode]
                let v = StockCatalog.makeNaive(new.type)
                v.tag = new.tag
                view(p).addSubview(v)
                created = v
            case .insert(_, let p, let index):
                let new = script.newNodes[next - script.firstNewNode]
                let v = StockCatalog.makeNaive(new.type)
                v.tag = new.tag
                view(p).insertSubview(v, at: Int(index))
                created = v
            case .remove(let leaf):
                view(leaf).removeFromSuperview()
            case .move(let x, let p):
                view(p).addSubview(view(x))
            case .exchange(let p, let i, let j):
                view(p).exchangeSubview(at: Int(i), withSubviewAt: Int(j))
            }
            // The query may ask about the new view.
            if let created { added.append(created) }
            let t1 = clock.now
            var answer: UInt64 = 0
            var groups: [Int: [NaiveView]]?
            switch step.query {
            case .isRelativeAncestor: answer = view(step.a).isRelativeAncestor(of: view(step.b)) ? 1 : 0
            case .isRelativeDescendant: answer = view(step.a).isRelativeDescendant(of: view(step.b)) ? 1 : 0
            case .groupSiblingsByTags: groups = view(step.a).groupSiblings(by: tags)
            }
            let t2 = clock.now
            latency.queries.append(clock.interval(t1, t2, reads: 1))
            latency.steps.append(clock.interval(t0, t2, reads: 2))
            if let created {
                w.handleOfNaive[ObjectIdentifier(created)] = next
                next += 1
            }
            if let groups { answer = Answers.full(groups, Answers.tag, w.handle) }
            digests.append(answer)
        }
        w.naive += added
        return NaiveMeasurement(sample: churnSample(digests, latency), firstAnswer: nil, outcome: .measured)
    }

    private func churnSample(_ digests: [UInt64], _ latency: (queries: [Double], steps: [Double])) -> Sample {
        let total = latency.steps.reduce(0, +)
        var sample = Sample(nanosecondsPerOperation: total / Double(max(1, digests.count)), operations: digests.count, digests: digests)
        sample.latency = ChurnLatency(queries: latency.queries, steps: latency.steps)
        return sample
    }
}
