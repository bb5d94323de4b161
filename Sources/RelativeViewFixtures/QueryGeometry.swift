import RelativeViewCore

/// The seeded geometry that `convertPoint` and `layout` run on, shared by
/// `relative-view-bench` and `Benchmarks/`: every node's frame origin, size and bounds
/// origin in whole points, the same in every implementation, so that conversions are exact
/// and their answers compare bit for bit.
public enum QueryGeometry {
    /// The point `convertPoint` converts.
    ///
    /// - Complexity: O(1)
    public static let probe = SIMD2<Double>(3, 5)

    /// Node `i`'s frame origin, size and bounds origin, drawn from `seed`.
    ///
    /// - Complexity: O(count)
    public static func frames(count: Int, seed: UInt64) -> [(origin: SIMD2<Double>, size: SIMD2<Double>, bounds: SIMD2<Double>)] {
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(31))
        func draw(_ range: Range<Int>) -> Double { Double(Int.random(in: range, using: &rng)) }
        return (0 ..< count).map { _ in
            (SIMD2(draw(-64 ..< 64), draw(-64 ..< 64)), SIMD2(draw(1 ..< 64), draw(1 ..< 64)), SIMD2(draw(-4 ..< 5), draw(-4 ..< 5)))
        }
    }
}
