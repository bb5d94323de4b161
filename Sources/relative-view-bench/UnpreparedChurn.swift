import ArgumentParser
import Foundation
import RelativeViewCore
import RelativeViewFixtures

/// `--unprepared-churn`: the live index used as a user uses it, with no preparation.
///
/// A tree of `--nodes` nodes is built by appends under random parents through the public API
/// (`ViewTree(minimumCapacity:)` gives the node count at creation; no other reservation and
/// no `compactIndex()`). Then `--queries` steps (default 300,000), each one mutation of the
/// mix below and one `isAncestor` question, each timed alone; every answer is checked
/// against a walk up the parents of a model of the tree kept beside it (untimed).
///
/// The mix, per step: append a leaf 34%, insert a leaf as a first child 14%, remove a leaf
/// 14%, move a leaf under another node 14%, send a random node to the back of its siblings
/// (`makeLastChild`) 10%, move a random node's subtree under a node outside it 10%, remove a
/// random node's subtree of at most a tenth of the tree 4%. Subtrees of every size come two ways: a random node's (most
/// are small; any can be large), and every 200th move and every 1,000th removal a
/// subtree of a size drawn log-uniformly up to half the tree (a tenth for removals). A
/// removal drawn while the tree is smaller than at the start appends a leaf instead, so the
/// tree stays near its first size and bytes per node mean the same at the end.
struct UnpreparedChurn {
    enum Kind: Int, CaseIterable {
        case append, insertFirst, removeLeaf, moveLeaf, toBack, moveSubtree, removeSubtree

        var name: String {
            switch self {
            case .append: "append"
            case .insertFirst: "insertFirst"
            case .removeLeaf: "removeLeaf"
            case .moveLeaf: "moveLeaf"
            case .toBack: "toBack"
            case .moveSubtree: "moveSubtree"
            case .removeSubtree: "removeSubtree"
            }
        }
    }

    /// Latency percentiles, in nanoseconds.
    struct Distribution: Encodable {
        var count: Int
        var p50: Double
        var p99: Double
        var p999: Double
        var max: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            func at(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
            (count, p50, p99, p999, max) = (sorted.count, at(0.5), at(0.99), at(0.999), sorted.last ?? 0)
        }
    }

    struct KindFigures: Encodable {
        var kind: String
        /// Step latency (the mutation and the query after it).
        var steps: Distribution
        /// The most processor time (this thread's) one mutation of this kind took: a step
        /// whose latency is far above it was preempted, not busy.
        var maxMutationCPUNs: Double
        /// The largest subtree this kind moved or removed (1 for leaves).
        var largestSubtree: Int
    }

    struct Run: Encodable {
        var seed: UInt64
        var buildSeconds: Double
        var steps: Distribution
        var slowestKind: String
        var kinds: [KindFigures]
        /// The query after each mutation, and the same query timed the same way on the
        /// tree just built (before any step).
        var queries: Distribution
        var freshQueries: Distribution
        var queryP50Ratio: Double
        var queryP99Ratio: Double
        var nodesAtStart: Int
        var nodesAtEnd: Int
        var bytesPerNodeAtEnd: Double
        /// The index at the end: blocks in its list, blocks in all, and tokens per listed block.
        var listedBlocksAtEnd: Int
        var blocksAtEnd: Int
        var tokensPerListedBlock: Double
        var wrongAnswers: Int
    }

    /// The least and the most of a figure over the runs.
    struct Spread: Encodable {
        var least: Double
        var most: Double

        init(_ values: [Double]) {
            (least, most) = (values.min() ?? 0, values.max() ?? 0)
        }
    }

    struct Output: Encodable {
        var benchmark = "unprepared churn"
        /// The processor, from /proc/cpuinfo (figures depend on it).
        var processor: String
        var allocator: String
        var nodes: Int
        var steps: Int
        var runs: [Run]
        /// Over the runs: the worst step, the worst query ratios, the most bytes per node.
        var worstStepNs: Double
        var worstQueryP50Ratio: Double
        var worstQueryP99Ratio: Double
        var mostBytesPerNode: Double
        var wrongAnswers: Int
        /// Over the runs: the worst step, the query ratios and the bytes per node.
        var spreadWorstStepNs: Spread
        var spreadQueryP50Ratio: Spread
        var spreadQueryP99Ratio: Spread
        var spreadBytesPerNode: Spread
        /// Per step kind, the worst step over all the runs.
        var worstStepNsByKind: [String: Double]
    }

    /// The tree as the script sees it, by node number: parent (-1 root, -2 removed), child
    /// count and subtree size, with a list of live nodes for uniform picks.
    private struct Model {
        var parent: [Int32] = []
        var children: [Int32] = []
        var size: [Int32] = []
        var live: [Int32] = []
        var place: [Int32] = []

        mutating func add(under p: Int32) -> Int32 {
            let k = Int32(parent.count)
            parent.append(p)
            children.append(0)
            size.append(1)
            place.append(Int32(live.count))
            live.append(k)
            if p >= 0 {
                children[Int(p)] += 1
                grow(from: p, by: 1)
            }
            return k
        }

        mutating func grow(from p: Int32, by d: Int32) {
            var a = p
            while a >= 0 {
                size[Int(a)] += d
                a = parent[Int(a)]
            }
        }

        func random(_ rng: inout SplitMix64) -> Int32 { live[Int.random(in: 0 ..< live.count, using: &rng)] }

        /// A random non-root node whose subtree has no more than `limit` nodes, in a few tries.
        func randomChild(_ rng: inout SplitMix64, limit: Int32 = .max) -> Int32? {
            for _ in 0 ..< 16 {
                let x = random(&rng)
                if parent[Int(x)] >= 0 && size[Int(x)] <= limit { return x }
            }
            return nil
        }

        func randomLeaf(_ rng: inout SplitMix64) -> Int32? {
            for _ in 0 ..< 16 {
                let x = random(&rng)
                if parent[Int(x)] >= 0 && children[Int(x)] == 0 { return x }
            }
            return nil
        }

        func isAncestor(_ a: Int32, of b: Int32) -> Bool {
            var x = parent[Int(b)]
            while x >= 0 {
                if x == a { return true }
                x = parent[Int(x)]
            }
            return false
        }

        /// The lowest ancestor of `x` (or `x`) whose subtree has at least `n` nodes, below the
        /// root; if that one has more than 4n, the node below it on the way up.
        func ancestor(of x: Int32, atLeast n: Int32) -> Int32 {
            var x = x
            while size[Int(x)] < n, parent[Int(x)] >= 0, parent[Int(parent[Int(x)])] >= 0 {
                let up = parent[Int(x)]
                if size[Int(up)] > 4 * n { break }
                x = up
            }
            return x
        }

        mutating func detach(_ x: Int32) {
            let p = parent[Int(x)]
            children[Int(p)] -= 1
            grow(from: p, by: -size[Int(x)])
            parent[Int(x)] = -1
        }

        mutating func attach(_ x: Int32, under p: Int32) {
            parent[Int(x)] = p
            children[Int(p)] += 1
            grow(from: p, by: size[Int(x)])
        }

        mutating func forget(_ x: Int32) {
            parent[Int(x)] = -2
            let k = Int(place[Int(x)])
            let last = live.removeLast()
            if last != x {
                live[k] = last
                place[Int(last)] = Int32(k)
            }
            place[Int(x)] = -1
        }
    }

    let options: BenchOptions
    let progress: Progress

    static func run(_ options: BenchOptions) throws {
        let steps = options.queries ?? 300_000
        let progress = Progress(total: options.runs)
        var runs: [Run] = []
        var trace = ""
        for r in 0 ..< options.runs {
            progress.note("unprepared churn: run \(r + 1) of \(options.runs): building \(grouped(options.nodes)) nodes by random appends, then \(grouped(steps)) steps")
            let seed = options.seed &+ UInt64(r)
            let (run, lines) = UnpreparedChurn(options: options, progress: progress).once(seed: seed, nodes: options.nodes, steps: steps, traceRun: options.latencyTrace == nil ? nil : r)
            runs.append(run)
            trace += lines
        }
        progress.finish()
        if let path = options.latencyTrace {
            guard FileManager.default.createFile(atPath: path, contents: Data(("implementation,run,step,mutation,subtree,queryNs,stepNs,mutationCPUNs\n" + trace).utf8)) else {
                throw ValidationError("--latency-trace \(path): cannot write the file")
            }
        }
        var worstByKind: [String: Double] = [:]
        for run in runs {
            for k in run.kinds { worstByKind[k.kind] = max(worstByKind[k.kind] ?? 0, k.steps.max) }
        }
        let output = Output(
            processor: Self.processorName(), allocator: allocatorName, nodes: options.nodes, steps: steps, runs: runs,
            worstStepNs: runs.map(\.steps.max).max() ?? 0,
            worstQueryP50Ratio: runs.map(\.queryP50Ratio).max() ?? 0,
            worstQueryP99Ratio: runs.map(\.queryP99Ratio).max() ?? 0,
            mostBytesPerNode: runs.map(\.bytesPerNodeAtEnd).max() ?? 0,
            wrongAnswers: runs.reduce(0) { $0 + $1.wrongAnswers },
            spreadWorstStepNs: Spread(runs.map(\.steps.max)), spreadQueryP50Ratio: Spread(runs.map(\.queryP50Ratio)),
            spreadQueryP99Ratio: Spread(runs.map(\.queryP99Ratio)), spreadBytesPerNode: Spread(runs.map(\.bytesPerNodeAtEnd)),
            worstStepNsByKind: worstByKind)
        switch options.format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(output), as: UTF8.self))
        case .table, .csv:
            print(Self.table(output))
        }
        if output.wrongAnswers > 0 { throw ExitCode(RelativeViewBench.exitDisagreement) }
    }

    static func table(_ o: Output) -> String {
        func ms(_ ns: Double) -> String { fixed(ns / 1e6, 3) + " ms" }
        func us(_ ns: Double) -> String { fixed(ns / 1e3, 1) + " µs" }
        var lines = ["unprepared churn: \(grouped(o.nodes)) nodes, \(grouped(o.steps)) steps, \(o.runs.count) run(s), allocator \(o.allocator), \(o.processor)"]
        for (i, r) in o.runs.enumerated() {
            lines.append("run \(i + 1) (seed \(r.seed)): built in \(fixed(r.buildSeconds, 2)) s; \(grouped(r.nodesAtStart)) -> \(grouped(r.nodesAtEnd)) nodes, \(fixed(r.bytesPerNodeAtEnd, 1)) B/node at the end (index: \(grouped(r.listedBlocksAtEnd)) blocks listed of \(grouped(r.blocksAtEnd)), \(fixed(r.tokensPerListedBlock, 1)) tokens each); \(r.wrongAnswers) wrong answers")
            lines.append("  steps: p50 \(us(r.steps.p50)), p99 \(us(r.steps.p99)), p99.9 \(us(r.steps.p999)), max \(ms(r.steps.max)) (\(r.slowestKind))")
            lines.append("  query: p50 \(fixed(r.queries.p50, 0)) ns, p99 \(fixed(r.queries.p99, 0)) ns, p99.9 \(fixed(r.queries.p999, 0)) ns, max \(us(r.queries.max)); fresh tree p50 \(fixed(r.freshQueries.p50, 0)) ns, p99 \(fixed(r.freshQueries.p99, 0)) ns: \(fixed(r.queryP50Ratio, 2))x, \(fixed(r.queryP99Ratio, 2))x")
            for k in r.kinds {
                lines.append("  \(k.kind.padding(toLength: 13, withPad: " ", startingAt: 0)) \(grouped(k.steps.count).leftPadded(8)) steps: p50 \(us(k.steps.p50)), p99 \(us(k.steps.p99)), max \(ms(k.steps.max)) (mutation CPU max \(ms(k.maxMutationCPUNs))); largest subtree \(grouped(k.largestSubtree))")
            }
        }
        lines.append("worst step by kind over the runs: " + o.worstStepNsByKind.sorted { $0.key < $1.key }.map { "\($0.key) \(ms($0.value))" }.joined(separator: ", "))
        lines.append("worst step \(ms(o.worstStepNs)); worst query ratios p50 \(fixed(o.worstQueryP50Ratio, 2))x, p99 \(fixed(o.worstQueryP99Ratio, 2))x; most \(fixed(o.mostBytesPerNode, 1)) B/node; \(o.wrongAnswers) wrong answers")
        return lines.joined(separator: "\n")
    }

    /// One run: build, time the fresh queries, replay the steps. Returns its figures and,
    /// when `traceRun` is set, its trace lines (run, step, kind, query ns, step ns).
    func once(seed: UInt64, nodes n: Int, steps count: Int, traceRun: Int?) -> (Run, String) {
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(0x57A11))
        let types = StockCatalog.names.map { TypeRegistry.shared.typeID(named: $0) }
        let clock = ChurnClock()
        // 1. The tree, by appends under random parents, with the node count given at creation.
        var model = Model()
        model.parent.reserveCapacity(n + count)
        var ids: [NodeID] = []
        ids.reserveCapacity(n + count)
        let start = clock.now
        var tree = ViewTree(minimumCapacity: n)
        for i in 0 ..< n {
            let type = types[Int.random(in: 0 ..< types.count, using: &rng)]
            let tag = Int.random(in: 0 ..< 32, using: &rng)
            if i == 0 {
                ids.append(tree.makeNode(tag: tag, type: type))
                _ = model.add(under: -1)
            } else {
                let p = Int32.random(in: 0 ..< Int32(i), using: &rng)
                ids.append(tree.appendChild(tag: tag, type: type, to: ids[Int(p)]))
                _ = model.add(under: p)
            }
        }
        let buildSeconds = nanoseconds(clock.now - start) / 1e9
        // Node numbers of the slots: a removed node's slot goes to a later new node.
        var numberOfSlot = [Int32](repeating: -1, count: n + count)
        for (k, id) in ids.enumerated() { numberOfSlot[Int(id.index)] = Int32(k) }
        func question(_ rng: inout SplitMix64) -> (Int32, Int32) {
            let b = model.random(&rng)
            var a = model.random(&rng)
            if Bool.random(using: &rng) {
                // One of b's ancestors, at a random height: a fair share of yes answers.
                a = b
                while model.parent[Int(a)] >= 0 && (a == b || Bool.random(using: &rng)) { a = model.parent[Int(a)] }
            }
            return (a, b)
        }
        // 2. The same question on the tree as built, timed the same way.
        var fresh: [Double] = []
        fresh.reserveCapacity(count)
        var wrong = 0
        for _ in 0 ..< count {
            let (a, b) = question(&rng)
            let t0 = clock.now
            let answer = tree.isAncestor(ids[Int(a)], of: ids[Int(b)])
            let t1 = clock.now
            fresh.append(clock.interval(t0, t1, reads: 1))
            if answer != model.isAncestor(a, of: b) { wrong += 1 }
        }
        // 3. The steps.
        var stepTimes = [[Double]](repeating: [], count: Kind.allCases.count)
        var largest = [Int](repeating: 0, count: Kind.allCases.count)
        var mostCPU = [Double](repeating: 0, count: Kind.allCases.count)
        var queries: [Double] = []
        queries.reserveCapacity(count)
        var trace = ""
        let logLimit = log(Double(n) / 2)
        var moves = 0
        var removals = 0
        let tick = max(1, count / 20)
        for step in 0 ..< count {
            if step % tick == 0 { progress.note("unprepared churn: step \(grouped(step)) of \(grouped(count)), \(grouped(model.live.count)) nodes") }
            let roll = Int.random(in: 0 ..< 100, using: &rng)
            var kind: Kind = switch roll {
            case 0 ..< 34: .append
            case 34 ..< 48: .insertFirst
            case 48 ..< 62: .removeLeaf
            case 62 ..< 76: .moveLeaf
            case 76 ..< 86: .toBack
            case 86 ..< 96: .moveSubtree
            default: .removeSubtree
            }
            if (kind == .removeLeaf || kind == .removeSubtree) && model.live.count < n { kind = .append }
            // The operands, from the model (untimed).
            var x: Int32 = -1
            var p: Int32 = -1
            switch kind {
            case .append, .insertFirst:
                p = model.random(&rng)
            case .removeLeaf, .moveLeaf:
                if let leaf = model.randomLeaf(&rng) { x = leaf } else { kind = .append; p = model.random(&rng) }
                if kind == .moveLeaf {
                    p = model.random(&rng)
                    if p == x { kind = .append }
                }
            case .toBack:
                if let c = model.randomChild(&rng) { x = c } else { kind = .append; p = model.random(&rng) }
            case .moveSubtree:
                moves += 1
                if moves % 200 == 0 {
                    let want = Int32(exp(Double.random(in: 0 ... logLimit, using: &rng)))
                    x = model.ancestor(of: model.random(&rng), atLeast: want)
                } else if let c = model.randomChild(&rng) {
                    x = c
                }
                if x >= 0 && model.parent[Int(x)] >= 0 {
                    // A new parent outside the subtree.
                    for _ in 0 ..< 16 {
                        let t = model.random(&rng)
                        if t != x && !model.isAncestor(x, of: t) { p = t; break }
                    }
                }
                if p < 0 { kind = .append; p = model.random(&rng) }
            case .removeSubtree:
                removals += 1
                if removals % 1000 == 0 {
                    let want = Int32(exp(Double.random(in: 0 ... log(Double(n) / 10), using: &rng)))
                    x = model.ancestor(of: model.random(&rng), atLeast: want)
                } else if let c = model.randomChild(&rng, limit: Int32(n / 10)) {
                    x = c
                }
                if x < 0 || model.parent[Int(x)] < 0 { kind = .append; p = model.random(&rng) }
            }
            if kind == .append || kind == .insertFirst, p < 0 { p = model.random(&rng) }
            let type = types[Int.random(in: 0 ..< types.count, using: &rng)]
            let tag = Int.random(in: 0 ..< 32, using: &rng)
            var removed: [NodeID] = []
            if kind == .removeSubtree {
                // The nodes that go, for the model (untimed).
                removed = Array(tree.descendants(of: ids[Int(x)]))
            }
            // The step, timed.
            var created: NodeID?
            let c0 = Self.threadCPUNanoseconds()
            let t0 = clock.now
            switch kind {
            case .append:
                created = tree.appendChild(tag: tag, type: type, to: ids[Int(p)])
            case .insertFirst:
                let id = tree.makeNode(tag: tag, type: type)
                tree.insert(id, into: ids[Int(p)], at: 0)
                created = id
            case .removeLeaf, .removeSubtree:
                tree.removeSubtree(ids[Int(x)])
            case .moveLeaf, .moveSubtree:
                tree.append(ids[Int(x)], to: ids[Int(p)])
            case .toBack:
                tree.makeLastChild(ids[Int(x)])
            }
            let t1 = clock.now
            let c1 = Self.threadCPUNanoseconds()
            mostCPU[kind.rawValue] = max(mostCPU[kind.rawValue], Double(c1 - c0))
            // The model follows (untimed), then the question.
            let moved = x >= 0 ? Int(model.size[Int(x)]) : 1
            switch kind {
            case .append, .insertFirst:
                let k = model.add(under: p)
                if let created {
                    ids.append(created)
                    if Int(created.index) >= numberOfSlot.count { numberOfSlot.append(contentsOf: repeatElement(-1, count: Int(created.index) + 1 - numberOfSlot.count)) }
                    numberOfSlot[Int(created.index)] = k
                }
                largest[kind.rawValue] = max(largest[kind.rawValue], 1)
            case .removeLeaf, .removeSubtree:
                largest[kind.rawValue] = max(largest[kind.rawValue], Int(model.size[Int(x)]))
                model.detach(x)
                model.forget(x)
                for d in removed { model.forget(numberOfSlot[Int(d.index)]) }
            case .moveLeaf, .moveSubtree:
                largest[kind.rawValue] = max(largest[kind.rawValue], Int(model.size[Int(x)]))
                model.detach(x)
                model.attach(x, under: p)
            case .toBack:
                largest[kind.rawValue] = max(largest[kind.rawValue], Int(model.size[Int(x)]))
            }
            let (a, b) = question(&rng)
            let t2 = clock.now
            let answer = tree.isAncestor(ids[Int(a)], of: ids[Int(b)])
            let t3 = clock.now
            if answer != model.isAncestor(a, of: b) { wrong += 1 }
            let queryNs = clock.interval(t2, t3, reads: 1)
            let stepNs = clock.interval(t0, t1, reads: 1) + queryNs
            queries.append(queryNs)
            stepTimes[kind.rawValue].append(stepNs)
            if let traceRun { trace += "core,\(traceRun),\(step),\(kind.name),\(moved),\(Int(queryNs.rounded())),\(Int(stepNs.rounded())),\(c1 - c0)\n" }
        }
        let all = stepTimes.flatMap { $0 }
        let kinds = Kind.allCases.map { KindFigures(kind: $0.name, steps: Distribution(stepTimes[$0.rawValue]), maxMutationCPUNs: mostCPU[$0.rawValue], largestSubtree: largest[$0.rawValue]) }
        let slowest = kinds.max { $0.steps.max < $1.steps.max }?.kind ?? ""
        let q = Distribution(queries)
        let f = Distribution(fresh)
        let index = tree._indexFigures
        let run = Run(
            seed: seed, buildSeconds: buildSeconds, steps: Distribution(all), slowestKind: slowest, kinds: kinds,
            queries: q, freshQueries: f, queryP50Ratio: q.p50 / max(1, f.p50), queryP99Ratio: q.p99 / max(1, f.p99),
            nodesAtStart: n, nodesAtEnd: tree.count, bytesPerNodeAtEnd: Double(tree.memoryFootprint) / Double(max(1, tree.count)),
            listedBlocksAtEnd: index.listed, blocksAtEnd: index.blocks, tokensPerListedBlock: Double(index.tokens) / Double(max(1, index.listed)),
            wrongAnswers: wrong)
        return (run, trace)
    }
}

extension UnpreparedChurn {
    /// The processor's model name from /proc/cpuinfo, or "unknown".
    static func processorName() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
              let colon = line.firstIndex(of: ":") else { return "unknown" }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    /// This thread's processor time so far, in nanoseconds.
    static func threadCPUNanoseconds() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return t.tv_sec * 1_000_000_000 + t.tv_nsec
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
