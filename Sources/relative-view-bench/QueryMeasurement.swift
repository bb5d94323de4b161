import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// What one implementation is asked for one row of a query: its adaptor, the nodes of each
/// query (`a`, and `b` for the questions about two nodes), the keys, and how its found
/// nodes are digested.
struct QueryArm<I: RelativeQuerying> {
    let implementation: I
    /// Query `i` is about `a[i]` (the root, for a whole-tree grouping) and `b[i]`.
    let a: [I.Node]
    let b: [I.Node]
    let tags: [Int]
    let types: I.TypeKeys
    /// A node's number, for the digest of a whole answer (looked up after the timing).
    let handle: (I.Node) -> Int
    /// A found node's digest inside the timing, and what makes it a node number after
    /// (objects are digested by address: their numbers are a lookup in a large table).
    let found: (I.Node?) -> UInt64
    let numberFound: (Sample) -> Sample

    /// Asks `query` of this implementation `n` times (cycling over the inputs) for at least
    /// `minimum`, and keeps its first whole answer's digest: one code path for the three
    /// implementations and every query of the table, a loop of its own for each query
    /// (``RelativeQuerying/asking(_:tags:types:closureKey:in:)``), specialized for its adaptor.
    func time(_ query: RelativeQuery, count n: Int, minimum: Duration) -> (Sample, UInt64?) {
        // A query about one node is asked with `a` in both places.
        let loop = TimingLoop(a: a, b: b.isEmpty ? a : b, count: n, minimum: minimum, handle: handle, found: found)
        let (sample, digest, foundNodes) = implementation.asking(query, tags: tags, types: types, in: loop)
        return (foundNodes ? numberFound(sample) : sample, digest)
    }

    /// How many nodes the answers to `query` hold (untimed); `nil` for a query that finds
    /// no nodes (yes-or-no questions, conversions).
    func nodesFound(_ query: RelativeQuery) -> Int? {
        let (impl, b) = (implementation, b.isEmpty ? a : b)
        var total: Int?
        for i in a.indices {
            guard let n = impl.ask(query, a[i], b[i], tags: tags, types: types).nodeCount else { return nil }
            total = (total ?? 0) + n
        }
        return total
    }
}

/// The timing of one query: ``measure(count:minimum:cycle:_:)`` over the inputs, each answer
/// digested inside the timing (a group's summary; its first whole answer kept for after).
struct TimingLoop<Node>: QueryLoop {
    let a: [Node]
    let b: [Node]
    let count: Int
    let minimum: Duration
    let handle: (Node) -> Int
    let found: (Node?) -> UInt64

    /// The sample, the first whole answer's digest, and whether the answers were nodes
    /// found (digested as identities, to be numbered after).
    @inline(__always)
    func run(_ ask: (Node, Node) -> QueryResult<Node>) -> (Sample, UInt64?, Bool) {
        let (a, b, handle, found) = (a, b, handle, found)
        var first = FirstAnswer()
        var foundNodes = false
        let sample = measure(count: count, minimum: minimum) { i in
            switch ask(a[i], b[i]) {
            case .yes(let y): return y ? 1 : 0
            case .node(let x):
                foundNodes = true
                return found(x)
            case .groups(let g): return first.keep(i, g, Answers.tag, handle)
            case .named(let g): return first.keep(i, g, Answers.name, handle)
            case .point(let q): return Answers.point(q.x, q.y)
            }
        }
        return (sample, first.digest, foundNodes)
    }
}

extension Workload {
    /// Node numbers as nodes of one implementation; every query of a whole-tree grouping is
    /// asked of the root.
    private func nodes<N>(_ query: RelativeQuery, _ numbers: [Int32], _ all: [N]) -> [N] {
        query.isWholeTree ? Array(repeating: all[0], count: numbers.count) : numbers.map { all[Int($0)] }
    }

    /// The core's side of `query` about nodes `a` (and `b`).
    func coreArm(_ query: RelativeQuery, _ a: [Int32], _ b: [Int32]) -> QueryArm<CoreQuerying> {
        let core = CoreQuerying(tree, catalogTypeIDs: typeIDs)
        return QueryArm(
            implementation: core, a: nodes(query, a, ids), b: nodes(query, b, ids), tags: tags, types: core.typeKeys(typeIndices),
            handle: handle, found: { Answers.node($0.map { Int($0.index) }) }, numberFound: { $0 })
    }

    /// The facade's side of `query` about nodes `a` (and `b`).
    func facadeArm(_ query: RelativeQuery, _ a: [Int32], _ b: [Int32]) -> QueryArm<FacadeQuerying> {
        let facade = FacadeQuerying()
        return QueryArm(
            implementation: facade, a: nodes(query, a, views), b: nodes(query, b, views), tags: tags, types: facade.typeKeys(typeIndices),
            handle: handle, found: Answers.identity, numberFound: { self.numberingIdentities($0, naive: false) })
    }

    /// The naive core's side of `query` about nodes `a` (and `b`), asked in this process.
    func naiveArm(_ query: RelativeQuery, _ a: [Int32], _ b: [Int32]) -> QueryArm<NaiveQuerying> {
        let naive = NaiveQuerying()
        return QueryArm(
            implementation: naive, a: nodes(query, a, self.naive), b: nodes(query, b, self.naive), tags: tags,
            types: naive.typeKeys(typeIndices), handle: handle, found: Answers.identity,
            numberFound: { self.numberingIdentities($0, naive: true) })
    }
}
