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
    /// implementations, each call specialized for its adaptor.
    func time(_ query: RelativeQuery, count n: Int, minimum: Duration) -> (Sample, UInt64?) {
        let (impl, a, b, tags, types, handle, found) = (implementation, a, b, tags, types, handle, found)
        var first = FirstAnswer()
        let sample: Sample
        switch query {
        case .isRelative(let r):
            sample = measure(count: n, minimum: minimum) { i in impl.isRelative(r, a[i], of: b[i]) ? 1 : 0 }
        case .findFirst(let r, .tags):
            sample = numberFound(measure(count: n, minimum: minimum) { i in found(impl.findFirst(r, of: a[i], byTags: tags)) })
        case .findFirst(let r, .types):
            sample = numberFound(measure(count: n, minimum: minimum) { i in found(impl.findFirst(r, of: a[i], byTypes: types)) })
        case .findFirst(let r, .closure):
            sample = numberFound(measure(count: n, minimum: minimum) { i in found(impl.findFirstByClosureKey(r, of: a[i])) })
        case .group(let r, .tags):
            sample = measure(count: n, minimum: minimum) { i in first.keep(i, impl.group(r, of: a[i], byTags: tags), Answers.tag, handle) }
        case .group(let r, .types):
            sample = measure(count: n, minimum: minimum) { i in first.keep(i, impl.group(r, of: a[i], byTypes: types), Answers.name, handle) }
        case .group(let r, .closure):
            sample = measure(count: n, minimum: minimum) { i in first.keep(i, impl.groupByClosureKey(r, of: a[i]), Answers.tag, handle) }
        case .convertPoint:
            let p = QueryGeometry.probe
            sample = measure(count: n, minimum: minimum) { i in
                let q = impl.convert(p, from: a[i], to: b[i])
                return Answers.point(q.x, q.y)
            }
        }
        return (sample, first.digest)
    }

    /// How many nodes the answers to `query` hold (untimed); `nil` for a query that finds
    /// no nodes (yes-or-no questions, conversions).
    func nodesFound(_ query: RelativeQuery) -> Int? {
        let (impl, tags, types) = (implementation, tags, types)
        func members<K>(_ groups: [K: [I.Node]]) -> Int { groups.values.reduce(0) { $0 + $1.count } }
        switch query {
        case .isRelative, .convertPoint: return nil
        case .findFirst(let r, .tags): return a.count { impl.findFirst(r, of: $0, byTags: tags) != nil }
        case .findFirst(let r, .types): return a.count { impl.findFirst(r, of: $0, byTypes: types) != nil }
        case .findFirst(let r, .closure): return a.count { impl.findFirstByClosureKey(r, of: $0) != nil }
        case .group(let r, .tags): return a.reduce(0) { $0 + members(impl.group(r, of: $1, byTags: tags)) }
        case .group(let r, .types): return a.reduce(0) { $0 + members(impl.group(r, of: $1, byTypes: types)) }
        case .group(let r, .closure): return a.reduce(0) { $0 + members(impl.groupByClosureKey(r, of: $1)) }
        }
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
