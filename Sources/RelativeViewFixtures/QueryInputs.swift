import RelativeViewCore

/// The seeded questions the benchmarks ask of a ``TreeSpec``, as node numbers, so that
/// `relative-view-bench` and the package-benchmark suite in `Benchmarks/` ask the same ones
/// of every implementation.
public struct QueryInputs: Sendable {
    /// The tree asked about.
    ///
    /// - Complexity: O(1)
    public let spec: TreeSpec
    /// The seed every input is drawn from (with a salt per kind of input).
    ///
    /// - Complexity: O(1)
    public let seed: UInt64

    /// The inputs of `spec`, fixed by `seed`.
    ///
    /// - Complexity: O(1)
    public init(spec: TreeSpec, seed: UInt64) {
        self.spec = spec
        self.seed = seed
    }

    /// `count` uniformly random node numbers; a different `salt` gives an independent draw.
    ///
    /// - Complexity: O(count)
    public func randomNodes(_ count: Int, salt: UInt64) -> [Int32] {
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(salt))
        let n = spec.count
        return (0 ..< count).map { _ in Int32(Int.random(in: 0 ..< n, using: &rng)) }
    }

    /// The nodes at depth 0, 1 or 2: candidate ancestors for `isRelativeDescendant`.
    ///
    /// - Complexity: O(spec.count)
    public func shallowNodes() -> [Int32] {
        let depth = spec.depths()
        return (0 ..< Int32(spec.count)).filter { depth[Int($0)] <= 2 }
    }

    /// `count` pairs for `isRelativeDescendant(of:)`: a uniform node and a candidate ancestor
    /// from ``shallowNodes()`` (so that a fair share of the answers is yes).
    ///
    /// - Complexity: O(spec.count + count)
    public func descendantPairs(_ count: Int) -> (descendants: [Int32], ancestors: [Int32]) {
        let shallow = shallowNodes()
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(3))
        let a = randomNodes(count, salt: 4)
        let b = (0 ..< count).map { _ in shallow[Int.random(in: 0 ..< shallow.count, using: &rng)] }
        return (a, b)
    }

    /// `count` pairs for `isRelativeChild(of:)`: in half, `b` is `a`'s parent; the others
    /// are uniform.
    ///
    /// - Complexity: O(count)
    public func childPairs(_ count: Int) -> ([Int32], [Int32]) {
        let parents = spec.parents
        let (a, uniform) = (randomNodes(count, salt: 31), randomNodes(count, salt: 32))
        let b = a.indices.map { i in i % 2 == 0 && parents[Int(a[i])] >= 0 ? parents[Int(a[i])] : uniform[i] }
        return (a, b)
    }

    /// `count` pairs for `isRelativeSibling(of:)`: half share a parent, half are uniform.
    ///
    /// - Complexity: O(spec.count + count)
    public func siblingPairs(_ count: Int) -> ([Int32], [Int32]) {
        let parents = spec.parents
        let n = spec.count
        var children: [Int32: [Int32]] = [:]
        for i in 0 ..< n where parents[i] >= 0 { children[parents[i], default: []].append(Int32(i)) }
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(0x5151))
        var a: [Int32] = []
        var b: [Int32] = []
        for _ in 0 ..< count {
            let x = Int32(Int.random(in: 0 ..< n, using: &rng))
            a.append(x)
            let p = parents[Int(x)]
            if p >= 0, Bool.random(using: &rng), let siblings = children[p] {
                b.append(siblings.randomElement(using: &rng) ?? x)
            } else {
                b.append(Int32(Int.random(in: 0 ..< n, using: &rng)))
            }
        }
        return (a, b)
    }
}

extension QueryInputs {
    /// The steps of the interleaved mutation: step `i` moves node `x[i]` under node `y[i]`
    /// (unless that would make a cycle), then asks whether `qa[i]` is an ancestor of `qb[i]`.
    ///
    /// - Complexity: O(count)
    public func mutationSteps(_ count: Int) -> (x: [Int32], y: [Int32], qa: [Int32], qb: [Int32]) {
        (randomNodes(count, salt: 11), randomNodes(count, salt: 12), randomNodes(count, salt: 13), randomNodes(count, salt: 14))
    }
}
