import Foundation
import Testing
import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// Geometry of the `View` facade (columns, conversion through the lowest common ancestor)
/// against `NaiveView` (stored properties, UIKit's conversion through the root): the same
/// random tree with the same random frames and bounds origins must convert every point the
/// same way, to within 1e-9, before and after random re-parenting and re-framing.
@Suite struct GeometryConformanceTests {
    static let tolerance = 1e-9

    /// The same tree in both cores: node `i` is `views[i]` and `naive[i]`.
    struct Model {
        var views: [View] = []
        var naive: [NaiveView] = []
        var handleOfNaive: [ObjectIdentifier: Int] = [:]

        init(_ spec: TreeSpec) {
            spec.buildFacade(into: &views)
            spec.buildNaive(into: &naive)
            handleOfNaive = Dictionary(uniqueKeysWithValues: naive.enumerated().map { (ObjectIdentifier($1), $0) })
        }

        var count: Int { views.count }

        func naiveRoot(_ i: Int) -> Int {
            var x = naive[i]
            while let s = x.superview { x = s }
            return handleOfNaive[ObjectIdentifier(x)] ?? -1
        }

        func viewRoot(_ i: Int) -> Int {
            let root = views[i].rootView
            return views.firstIndex { $0 === root } ?? -1
        }

        /// Gives view `i` a frame and a bounds origin in both cores, through `frame` and `bounds`.
        func setGeometry(_ i: Int, frame: CGRect, boundsOrigin: CGPoint) {
            views[i].frame = frame
            naive[i].frame = frame
            views[i].bounds = CGRect(origin: boundsOrigin, size: frame.size)
            naive[i].bounds = CGRect(origin: boundsOrigin, size: naive[i].frame.size)
        }
    }

    /// A coordinate: on a 1/256 grid (sums are exact at any depth), or any double in range.
    static func coordinate(_ rng: inout SplitMix64, gridded: Bool, _ range: ClosedRange<Double> = -500 ... 500) -> Double {
        let x = Double.random(in: range, using: &rng)
        return gridded ? (x * 256).rounded() / 256 : x
    }

    static func point(_ rng: inout SplitMix64, gridded: Bool) -> CGPoint {
        CGPoint(x: coordinate(&rng, gridded: gridded), y: coordinate(&rng, gridded: gridded))
    }

    static func randomGeometry(_ m: Model, _ i: Int, _ rng: inout SplitMix64, gridded: Bool) {
        let frame = CGRect(origin: point(&rng, gridded: gridded),
                           size: CGSize(width: coordinate(&rng, gridded: gridded, 0 ... 400), height: coordinate(&rng, gridded: gridded, 0 ... 400)))
        let boundsOrigin = Int.random(in: 0 ..< 3, using: &rng) == 0 ? .zero : point(&rng, gridded: gridded)
        m.setGeometry(i, frame: frame, boundsOrigin: boundsOrigin)
    }

    static func close(_ a: CGPoint, _ b: CGPoint) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    static func close(_ a: CGRect, _ b: CGRect) -> Bool {
        close(a.origin, b.origin) && a.size == b.size
    }

    /// Compares the two cores' geometry of every view, and `queries` random conversions
    /// (to and from another view of the same tree, and to and from `nil`).
    static func compare(_ m: Model, queries: Int, _ rng: inout SplitMix64, gridded: Bool, _ context: String) {
        for i in 0 ..< m.count {
            let (v, n) = (m.views[i], m.naive[i])
            guard v.frame == n.frame, v.bounds == n.bounds, close(v.center, n.center) else {
                Issue.record("\(context): view \(i) frame \(v.frame) vs \(n.frame), bounds \(v.bounds) vs \(n.bounds), center \(v.center) vs \(n.center)")
                return
            }
        }
        for q in 0 ..< queries {
            let a = Int.random(in: 0 ..< m.count, using: &rng)
            // One pair in eight is a view with itself.
            let b = Int.random(in: 0 ..< 8, using: &rng) == 0 ? a : Int.random(in: 0 ..< m.count, using: &rng)
            let (va, vb, na, nb) = (m.views[a], m.views[b], m.naive[a], m.naive[b])
            let p = point(&rng, gridded: gridded)
            let r = CGRect(origin: p, size: CGSize(width: 3, height: 4))
            let note = Comment(rawValue: "\(context), query \(q): \(a) and \(b), point \(p)")
            let sameTree = m.naiveRoot(a) == m.naiveRoot(b)
            #expect(m.viewRoot(a) == m.naiveRoot(a), note)
            #expect(va.isInSameTree(as: vb) == sameTree, note)
            if sameTree {
                let (to, naiveTo) = (va.convert(p, to: vb), na.convert(p, to: nb))
                #expect(close(to, naiveTo), "\(note.rawValue): to \(to) vs \(naiveTo)")
                let (from, naiveFrom) = (va.convert(p, from: vb), na.convert(p, from: nb))
                #expect(close(from, naiveFrom), "\(note.rawValue): from \(from) vs \(naiveFrom)")
                #expect(close(va.convert(r, to: vb), na.convert(r, to: nb)), note)
                #expect(close(va.convert(r, from: vb), na.convert(r, from: nb)), note)
            }
            let (up, naiveUp) = (va.convert(p, to: nil), na.convert(p, to: nil))
            #expect(close(up, naiveUp), "\(note.rawValue): to nil \(up) vs \(naiveUp)")
            let (down, naiveDown) = (va.convert(p, from: nil), na.convert(p, from: nil))
            #expect(close(down, naiveDown), "\(note.rawValue): from nil \(down) vs \(naiveDown)")
            #expect(close(va.convert(r, to: nil), na.convert(r, to: nil)), note)
            #expect(close(va.convert(r, from: nil), na.convert(r, from: nil)), note)
        }
    }

    // MARK: Static trees

    @Test(arguments: TreeShape.allCases, [1, 2, 10, 100, 1000])
    func convertAgreesOnARandomTree(shape: TreeShape, n: Int) {
        for seed in [1, 2] as [UInt64] {
            let treeSeed = seed &* 7919 &+ UInt64(n) &* 31 &+ UInt64(TreeShape.allCases.firstIndex(of: shape)!)
            var rng = SplitMix64(seed: treeSeed)
            let m = Model(TreeSpec(shape: shape, nodes: n, seed: treeSeed))
            for i in 0 ..< n { Self.randomGeometry(m, i, &rng, gridded: true) }
            Self.compare(m, queries: 300, &rng, gridded: true, "seed \(treeSeed), \(shape) n \(n)")
            // A second burst of queries, after the first kept the views' positions, agrees too.
            Self.compare(m, queries: 100, &rng, gridded: true, "seed \(treeSeed), \(shape) n \(n), kept positions")
        }
    }

    /// Coordinates off any grid: the two cores add in different orders, so they agree to
    /// within the tolerance rather than exactly (trees deep enough to matter, not so deep that
    /// rounding could reach 1e-9).
    @Test(arguments: TreeShape.allCases, [2, 10, 100])
    func convertAgreesWithUnroundedCoordinates(shape: TreeShape, n: Int) {
        let seed = 500 &+ UInt64(n) &* 31 &+ UInt64(TreeShape.allCases.firstIndex(of: shape)!)
        var rng = SplitMix64(seed: seed)
        let m = Model(TreeSpec(shape: shape, nodes: n, seed: seed))
        for i in 0 ..< n { Self.randomGeometry(m, i, &rng, gridded: false) }
        Self.compare(m, queries: 300, &rng, gridded: false, "seed \(seed), \(shape) n \(n), unrounded")
    }

    // MARK: Mutations

    /// Random re-parenting (`addSubview`, `insertSubview(_:at:)`, above and below a sibling),
    /// removals (which make separate trees) and geometry changes (`frame`, `bounds`,
    /// `center`) applied to both cores, with conversions compared all along.
    @Test(arguments: [21, 22, 23, 24] as [UInt64], [10, 100, 300])
    func convertAgreesAcrossRandomMutations(seed: UInt64, n: Int) {
        var rng = SplitMix64(seed: seed &* 1000 &+ UInt64(n))
        let m = Model(TreeSpec(shape: .random, nodes: n, seed: seed))
        for i in 0 ..< n { Self.randomGeometry(m, i, &rng, gridded: true) }
        var mutations = 0
        for step in 0 ..< 2000 {
            let context = "seed \(seed), n \(n), step \(step)"
            let a = Int.random(in: 0 ..< n, using: &rng)
            let b = Int.random(in: 0 ..< n, using: &rng)
            let (va, vb, na, nb) = (m.views[a], m.views[b], m.naive[a], m.naive[b])
            switch Int.random(in: 0 ..< 20, using: &rng) {
            case 0 ..< 6:
                guard a != b, !na.isRelativeAncestor(of: nb) else { continue }
                switch Int.random(in: 0 ..< 3, using: &rng) {
                case 0:
                    vb.addSubview(va)
                    nb.addSubview(na)
                case 1:
                    let i = Int.random(in: 0 ... nb.subviews.filter { $0 !== na }.count, using: &rng)
                    vb.insertSubview(va, at: i)
                    nb.insertSubview(na, at: i)
                default:
                    guard let sibling = nb.subviews.filter({ $0 !== na }).randomElement(using: &rng),
                          let s = m.handleOfNaive[ObjectIdentifier(sibling)] else { continue }
                    if Bool.random(using: &rng) {
                        vb.insertSubview(va, belowSubview: m.views[s])
                        nb.insertSubview(na, belowSubview: sibling)
                    } else {
                        vb.insertSubview(va, aboveSubview: m.views[s])
                        nb.insertSubview(na, aboveSubview: sibling)
                    }
                }
                mutations += 1
            case 6:
                va.removeFromSuperview()
                na.removeFromSuperview()
                mutations += 1
            case 7 ..< 9:
                Self.randomGeometry(m, a, &rng, gridded: true)
            case 9:
                let c = Self.point(&rng, gridded: true)
                va.center = c
                na.center = c
            case 10:
                // A new bounds size keeps the center; a new bounds origin shifts the subviews.
                let size = CGSize(width: Self.coordinate(&rng, gridded: true, 0 ... 400), height: Self.coordinate(&rng, gridded: true, 0 ... 400))
                let origin = Self.point(&rng, gridded: true)
                va.bounds = CGRect(origin: origin, size: size)
                na.bounds = CGRect(origin: origin, size: size)
            default:
                Self.compare(m, queries: 1, &rng, gridded: true, context)
            }
            if step % 250 == 249 { Self.compare(m, queries: 50, &rng, gridded: true, context) }
        }
        #expect(mutations > 0)
        Self.compare(m, queries: 300, &rng, gridded: true, "seed \(seed), n \(n), end")
    }
}

/// Negative sizes are degenerate, but the facade and the naive core treat them alike:
/// signed sizes everywhere (Foundation's `CGRect.width` is the absolute value, `size.width` is not).
@Suite struct NegativeSizeTests {
    @Test func centerAndBoundsKeepSignedSizes() {
        let view = View(frame: CGRect(x: 10, y: 20, width: -8, height: 6))
        let naive = NaiveView()
        naive.frame = CGRect(x: 10, y: 20, width: -8, height: 6)
        #expect(view.center == CGPoint(x: 6, y: 23))
        #expect(naive.center == view.center)
        view.center = CGPoint(x: 0, y: 0)
        naive.center = CGPoint(x: 0, y: 0)
        #expect(view.center == CGPoint(x: 0, y: 0))
        #expect(naive.center == view.center)
        #expect(view.frame.origin == CGPoint(x: 4, y: -3))
        #expect(naive.frame.origin == view.frame.origin)
        view.bounds.size = CGSize(width: -4, height: 2)
        naive.bounds.size = CGSize(width: -4, height: 2)
        #expect(view.center == CGPoint(x: 0, y: 0))
        #expect(naive.center == view.center)
        #expect(naive.frame.origin == view.frame.origin)
    }
}
