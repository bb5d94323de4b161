import Foundation
import RelativeLayout
import RelativeView
import RelativeViewFixtures
import RelativeViewNaive

/// The alignments of the `layout` operation.
///
/// Every node gets a seeded frame and bounds origin in whole points (`QueryGeometry`, shared
/// with `Benchmarks/`), the same in every implementation, so that conversions and
/// alignments are exact and their answers compare bit for bit. `layout` aligns each view in node order (`1 ..< n`: a view after its
/// superview) to a random earlier view: `view.left --> 2.horizontalOffset + earlier.right`.
/// The facade does it with RelativeLayout; the core and the naive core do the same
/// arithmetic by hand (`alignCore`, `alignNaive`), each with its own coordinate conversion:
/// through the lowest common ancestor on the arena's columns, and UIKit's walk of both
/// superview chains to the root on the naive core. The screen scale is found by walking to
/// the view's root (where a tree's scale is set; none is, so it is 1): once per position made
/// on the arena, as RelativeLayout does, and for every rounding on the naive core, as the
/// original's `PixelRounder(for:)` does through `view.window`.
enum BenchLayout {
    /// The horizontal offset of each alignment.
    static let gap: Double = 2

    /// The earlier view each view `i` (from 1) is aligned to: `targets[i]` in `0 ..< i`.
    static func targets(count: Int, seed: UInt64) -> [Int32] {
        var rng = SplitMix64(seed: seed ^ SplitMix64.mix(32))
        return (0 ..< count).map { i in i == 0 ? 0 : Int32(Int.random(in: 0 ..< i, using: &rng)) }
    }

    @inline(__always)
    static func round(_ v: SIMD2<Double>) -> SIMD2<Double> { v.rounded(.toNearestOrAwayFromZero) }

    /// The digest of an aligned view's new frame origin.
    @inline(__always)
    static func digest(_ origin: SIMD2<Double>) -> UInt64 { Answers.point(origin.x, origin.y) }

    // MARK: The three implementations of one alignment

    /// `view.left --> 2.horizontalOffset + target.right` with RelativeLayout.
    @inline(__always)
    static func alignFacade(_ view: View, to target: View) -> UInt64 {
        view.left --> Offset(horizontal: gap, vertical: 0) + target.right
        let origin = view.frame.origin
        return digest(SIMD2(Double(origin.x), Double(origin.y)))
    }

    /// The same alignment on the core's columns: anchors rounded (one walk to the root per
    /// position), the target converted through the lowest common ancestor, the origin rounded.
    @inline(__always)
    static func alignCore(_ tree: inout ViewTree, _ view: NodeID, to target: NodeID) -> UInt64 {
        guard let superview = tree.parent(of: view) else { return 0 }
        _ = tree.root(of: view)
        let size = tree.frameSize(of: view)
        let bounds = tree.boundsOrigin(of: view)
        let left = round(bounds + SIMD2(0, size.y / 2))
        _ = tree.root(of: target)
        let targetSize = tree.frameSize(of: target)
        let right = round(tree.boundsOrigin(of: target) + SIMD2(targetSize.x, targetSize.y / 2))
        let shifted = round(right + SIMD2(gap, 0))
        let point = tree.convert(shifted, from: target, to: superview)
        let origin = round(point - (left - bounds))
        tree.setFrameOrigin(origin, of: view)
        return digest(origin)
    }

    /// The same alignment on the naive core, as the original does it: UIKit's conversion
    /// walks both superview chains to the root.
    @inline(__always)
    static func alignNaive(_ view: NaiveView, to target: NaiveView) -> UInt64 {
        guard let superview = view.superview else { return 0 }
        _ = root(of: view)
        let bounds = view.bounds
        let left = round(SIMD2(Double(bounds.minX), Double(bounds.midY)))
        _ = root(of: target)
        let targetBounds = target.bounds
        let right = round(SIMD2(Double(targetBounds.maxX), Double(targetBounds.midY)))
        _ = root(of: target)
        let shifted = round(right + SIMD2(gap, 0))
        let converted = target.convert(CGPoint(x: shifted.x, y: shifted.y), to: superview)
        _ = root(of: view)
        let origin = round(SIMD2(Double(converted.x), Double(converted.y)) - (left - SIMD2(Double(bounds.minX), Double(bounds.minY))))
        view.frame.origin = CGPoint(x: origin.x, y: origin.y)
        return digest(origin)
    }

    /// The root of a naive view's hierarchy (UIKit finds a view's window the same way).
    @inline(__always)
    static func root(of view: NaiveView) -> NaiveView {
        var root = view
        while let superview = root.superview { root = superview }
        return root
    }
}
