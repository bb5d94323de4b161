import Foundation
import Testing
@testable import RelativeView
import RelativeViewFixtures

/// `View.frame`, `bounds`, `center` and `convert` (`View+Geometry.swift`): UIKit's semantics,
/// and geometry that follows a view wherever its node goes (into a tree, back to lone, through
/// store merges and splits, and past a freed superview). Nothing here needs a window: `nil`
/// means the space of the view's root.
@Suite struct GeometryTests {
    static let sizes = [0, 1, 2, 10, 100]

    /// What a view's geometry is made of: its frame and its bounds origin.
    struct Geometry: Equatable, CustomStringConvertible {
        var frame: CGRect
        var boundsOrigin: CGPoint
        var description: String { "frame \(frame), bounds origin \(boundsOrigin)" }
    }

    static func geometry(_ v: View) -> Geometry { Geometry(frame: v.frame, boundsOrigin: v.bounds.origin) }

    /// A value on a 1/64 grid, so that sums of a few thousand of them are exact.
    static func coordinate(_ rng: inout SplitMix64, _ range: ClosedRange<Int> = -32_000 ... 32_000) -> CGFloat {
        CGFloat(Int.random(in: range, using: &rng)) / 64
    }

    static func randomGeometry(_ rng: inout SplitMix64) -> Geometry {
        Geometry(
            frame: CGRect(x: coordinate(&rng), y: coordinate(&rng), width: coordinate(&rng, 0 ... 32_000), height: coordinate(&rng, 0 ... 32_000)),
            boundsOrigin: Int.random(in: 0 ..< 3, using: &rng) == 0 ? .zero : CGPoint(x: coordinate(&rng), y: coordinate(&rng)))
    }

    static func apply(_ g: Geometry, to v: View) {
        v.frame = g.frame
        v.bounds.origin = g.boundsOrigin  // same size: the frame stays
    }

    /// A random tree of `n` views (`n >= 1`) with random geometry; view 0 is the root.
    static func tree(_ n: Int, seed: UInt64) -> [View] {
        var views: [View] = []
        TreeSpec(shape: .random, nodes: n, seed: seed).buildFacade(into: &views)
        var rng = SplitMix64(seed: ~seed)
        for v in views { apply(randomGeometry(&rng), to: v) }
        return views
    }

    /// The oracle: a point of `v`'s space in its root's space, by the superview chain.
    static func inRootSpace(_ p: CGPoint, of v: View) -> (CGPoint, View) {
        var p = p
        var x = v
        while let s = x.superview {
            p.x += x.frame.origin.x - x.bounds.origin.x
            p.y += x.frame.origin.y - x.bounds.origin.y
            x = s
        }
        return (p, x)
    }

    static func oracleConvert(_ p: CGPoint, from a: View, to b: View) -> CGPoint {
        let (up, ra) = inRootSpace(p, of: a)
        let (down, rb) = inRootSpace(.zero, of: b)
        precondition(ra === rb, "oracle: different trees")
        return CGPoint(x: up.x - down.x, y: up.y - down.y)
    }

    // MARK: frame, bounds, center

    @Test func aNewViewHasZeroGeometryAndNoBox() {
        let v = View()
        #expect(v.frame == .zero)
        #expect(v.bounds == .zero)
        #expect(v.center == .zero)
        #expect(v._store == nil)
        #expect(v._extras == nil)
    }

    @Test func initWithFrameKeepsItAloneInABox() {
        let r = CGRect(x: 10, y: 20, width: 100, height: 50)
        let v = View(frame: r)
        #expect(v.frame == r)
        #expect(v.bounds == CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(v.center == CGPoint(x: 60, y: 45))
        #expect(v._store == nil, "geometry does not need a store")
        #expect(v._extras != nil)
        let image = ImageView(frame: r)
        #expect(image.frame == r)
        // Back to all zero: the box is dropped.
        v.frame = .zero
        #expect(v._extras == nil)
        v.bounds.origin = CGPoint(x: 1, y: 0)
        #expect(v._extras != nil)
        v.bounds.origin = .zero
        #expect(v._extras == nil)
    }

    /// The same steps on a view alone, as a root with a subview, and as a subview.
    @Test(arguments: ["lone", "root", "subview"])
    func frameBoundsAndCenterFollowUIKit(place: String) {
        let v = View()
        let other = View()
        switch place {
        case "root": v.addSubview(other)
        case "subview": other.addSubview(v)
        default: break
        }
        v.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(v.bounds == CGRect(x: 0, y: 0, width: 100, height: 50), "\(place)")
        #expect(v.center == CGPoint(x: 60, y: 45), "\(place)")

        // A new bounds size keeps the center: the frame grows or shrinks around it.
        v.bounds = CGRect(x: 5, y: 6, width: 40, height: 10)
        #expect(v.center == CGPoint(x: 60, y: 45), "\(place)")
        #expect(v.frame == CGRect(x: 40, y: 40, width: 40, height: 10), "\(place)")
        #expect(v.bounds == CGRect(x: 5, y: 6, width: 40, height: 10), "\(place)")
        v.bounds.size = CGSize(width: 120, height: 90)
        #expect(v.center == CGPoint(x: 60, y: 45), "\(place)")
        #expect(v.frame == CGRect(x: 0, y: 0, width: 120, height: 90), "\(place)")
        #expect(v.bounds.origin == CGPoint(x: 5, y: 6), "\(place)")

        // A new bounds origin moves neither the frame nor the center.
        v.bounds.origin = CGPoint(x: -7, y: 8)
        #expect(v.frame == CGRect(x: 0, y: 0, width: 120, height: 90), "\(place)")
        #expect(v.bounds == CGRect(x: -7, y: 8, width: 120, height: 90), "\(place)")

        // A new frame keeps the bounds origin and gives the bounds its size.
        v.frame = CGRect(x: 1, y: 2, width: 30, height: 40)
        #expect(v.bounds == CGRect(x: -7, y: 8, width: 30, height: 40), "\(place)")
        #expect(v.center == CGPoint(x: 16, y: 22), "\(place)")

        // A new center moves the frame and keeps its size and the bounds.
        v.center = CGPoint(x: 100, y: 200)
        #expect(v.frame == CGRect(x: 85, y: 180, width: 30, height: 40), "\(place)")
        #expect(v.bounds == CGRect(x: -7, y: 8, width: 30, height: 40), "\(place)")
        v.frame.size.width = 50
        #expect(v.frame == CGRect(x: 85, y: 180, width: 50, height: 40), "\(place)")
        #expect(v.center == CGPoint(x: 110, y: 200), "\(place)")

        // The other view is untouched.
        #expect(other.frame == .zero, "\(place)")
        #expect(other.bounds == .zero, "\(place)")
    }

    @Test func aBoundsOriginShiftsTheSubviews() {
        let window = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let scroll = ScrollView(frame: CGRect(x: 10, y: 10, width: 100, height: 100))
        let child = View(frame: CGRect(x: 0, y: 40, width: 20, height: 20))
        window.addSubview(scroll)
        scroll.addSubview(child)
        #expect(child.convert(CGPoint.zero, to: window) == CGPoint(x: 10, y: 50))
        // Scrolled down by 30: everything inside moves up by 30; the scroll view's frame does not move.
        scroll.bounds.origin = CGPoint(x: 0, y: 30)
        #expect(scroll.frame == CGRect(x: 10, y: 10, width: 100, height: 100))
        #expect(child.convert(CGPoint.zero, to: scroll) == CGPoint(x: 0, y: 40), "the child's frame is in the scrolled space")
        #expect(child.convert(CGPoint.zero, to: window) == CGPoint(x: 10, y: 20))
        #expect(child.convert(CGPoint.zero, to: nil) == CGPoint(x: 10, y: 20))
        #expect(window.convert(CGPoint(x: 10, y: 20), to: child) == .zero)
        #expect(scroll.convert(CGPoint.zero, to: window) == CGPoint(x: 10, y: -20), "the bounds origin is drawn at the frame origin")
        #expect(scroll.convert(CGPoint(x: 0, y: 30), to: window) == CGPoint(x: 10, y: 10))
        // The window's own bounds origin does not move anything in the window's space...
        window.bounds.origin = CGPoint(x: 1000, y: 1000)
        #expect(child.convert(CGPoint.zero, to: window) == CGPoint(x: 10, y: 20))
        // ...but it does move its subviews in the space of a view above it.
        let screen = View()
        screen.addSubview(window)
        #expect(child.convert(CGPoint.zero, to: screen) == CGPoint(x: -990, y: -980))
        #expect(child.convert(CGPoint.zero, to: nil) == CGPoint(x: -990, y: -980))
        #expect(screen.convert(CGPoint(x: -990, y: -980), to: child) == .zero)
    }

    // MARK: Geometry follows the view

    @Test(arguments: sizes)
    func aLoneViewsGeometrySurvivesAddSubviewAndRemoveFromSuperview(n: Int) {
        let g = Geometry(frame: CGRect(x: 3, y: 4, width: 5, height: 6), boundsOrigin: CGPoint(x: -1, y: 2))
        let v = Button()
        Self.apply(g, to: v)
        #expect(v._store == nil && v._extras != nil)
        let views = n == 0 ? [View(frame: CGRect(x: 7, y: 8, width: 9, height: 10))] : Self.tree(n, seed: UInt64(n))
        let before = views.map(Self.geometry)
        let parent = views[views.count - 1]
        parent.addSubview(v)
        #expect(v.superview === parent)
        #expect(v._store != nil, "n \(n)")
        #expect(v._extras == nil, "n \(n): the box moved into the columns")
        #expect(Self.geometry(v) == g, "n \(n)")
        #expect(views.map(Self.geometry) == before, "n \(n)")
        #expect(v.convert(CGPoint.zero, to: parent) == CGPoint(x: 4, y: 2), "n \(n)")

        v.removeFromSuperview()
        #expect(v.superview == nil)
        #expect(v._store == nil, "n \(n): back to lone")
        #expect(v._extras != nil, "n \(n)")
        #expect(Self.geometry(v) == g, "n \(n)")
        #expect(views.map(Self.geometry) == before, "n \(n)")
        if n <= 1 {
            #expect(parent._store == nil, "n \(n): the parent is alone again")
            #expect(parent._extras != nil)
        }
        // A lone view with zero geometry gets no box.
        let plain = View()
        parent.addSubview(plain)
        plain.removeFromSuperview()
        #expect(plain._store == nil && plain._extras == nil)
    }

    /// The screen scale shares the box of a lone view's geometry: the geometry moves into the
    /// tree's columns when the view joins a tree, the scale stays with the view.
    @Test func aScreenScaleSurvivesJoiningAndLeavingATreeWithTheGeometry() {
        let root = View()
        root.screenScale = 3
        root.frame = CGRect(x: 1, y: 2, width: 30, height: 40)
        let child = View()
        root.addSubview(child)
        #expect(root.screenScale == 3)
        #expect(root.frame == CGRect(x: 1, y: 2, width: 30, height: 40))
        #expect(root._extras != nil && root._extras!.geometryIsZero, "the geometry moved into the columns, the scale stayed")
        child.removeFromSuperview()
        #expect(root._store == nil && root.screenScale == 3)
        #expect(root.frame == CGRect(x: 1, y: 2, width: 30, height: 40))
        root.screenScale = nil
        #expect(root._extras != nil, "the geometry is still boxed")
        root.frame = .zero
        #expect(root._extras == nil, "nothing left to keep")
        #expect(root.screenScale == nil)
    }

    @Test(arguments: sizes, [false, true])
    func geometrySurvivesTheSuperviewBeingFreed(n: Int, treeFirst: Bool) {
        var rng = SplitMix64(seed: 100 &+ UInt64(n))
        // Survivors: `n` lone views, and one view with a subview of its own.
        let lone = (0 ..< n).map { _ in View() }
        let withKid = Label(), kid = View()
        withKid.addSubview(kid)
        let expected = (lone + [withKid, kid]).map { v -> Geometry in
            let g = Self.randomGeometry(&rng)
            Self.apply(g, to: v)
            return g
        }
        weak var weakParent: View?
        weak var weakDropped: View?
        do {
            let parent = View(frame: CGRect(x: 1, y: 1, width: 1, height: 1))
            weakParent = parent
            let dropped = View(frame: CGRect(x: 2, y: 2, width: 2, height: 2))
            weakDropped = dropped
            if treeFirst { parent.addSubview(withKid) }
            for v in lone { parent.addSubview(v) }
            parent.addSubview(dropped)
            if !treeFirst { parent.addSubview(withKid) }
            #expect(withKid.isInSameTree(as: parent))
        }
        #expect(weakParent == nil && weakDropped == nil)
        for (k, v) in (lone + [withKid, kid]).enumerated() {
            #expect(Self.geometry(v) == expected[k], "n \(n), view \(k)")
        }
        for v in lone + [withKid] { #expect(v.superview == nil) }
        for v in lone { #expect(v._store == nil && v._extras != nil) }
        #expect(kid.superview === withKid)
        #expect(withKid.rootView === withKid)
        // The kid's offset in its parent's space is its own frame origin less its bounds origin.
        let kidGeometry = expected[n + 1]
        let offset = CGPoint(x: kidGeometry.frame.origin.x - kidGeometry.boundsOrigin.x,
                             y: kidGeometry.frame.origin.y - kidGeometry.boundsOrigin.y)
        #expect(withKid.convert(CGPoint.zero, to: nil) == .zero, "a root converts to its own space")
        #expect(kid.convert(CGPoint.zero, to: withKid) == offset)
        #expect(kid.convert(CGPoint.zero, to: nil) == offset)
        for (i, a) in lone.enumerated() where i > 0 { #expect(!a.isInSameTree(as: lone[0])) }
    }

    /// (views in the child's tree, views in the parent's tree): the child's tree is the
    /// smaller one (it moves into the parent's store), the larger one (the parent's tree
    /// moves into the child's store), or the same size.
    static let merges: [(Int, Int)] = [(1, 1), (1, 2), (2, 1), (1, 100), (100, 1), (2, 10), (10, 2), (10, 10), (3, 100), (100, 3)]

    @Test(arguments: merges)
    func geometrySurvivesStoreMergesAndSplits(childSize: Int, parentSize: Int) {
        let seed = UInt64(childSize * 1000 + parentSize)
        let child = Self.tree(childSize, seed: seed)
        let parent = Self.tree(parentSize, seed: seed &+ 1)
        let all = child + parent
        let before = all.map(Self.geometry)
        let (childStore, parentStore) = (child[0]._store, parent[0]._store)
        // Inner points of each tree, in its root's space, before the merge.
        let probe = CGPoint(x: 0.5, y: -0.25)
        let inChildRoot = child.map { $0.convert(probe, to: nil) }
        let inParentRoot = parent.map { $0.convert(probe, to: nil) }

        let host = parent[parentSize - 1]
        host.addSubview(child[0])
        let note = Comment(rawValue: "child tree \(childSize), parent tree \(parentSize)")
        #expect(all.map(Self.geometry) == before, note)
        for v in all { #expect(v._extras == nil && v._store === parent[0]._store, note) }
        // Smaller into larger (the child's tree on a tie); a lone view has no store to keep.
        switch (childStore, parentStore) {
        case (nil, nil): break
        case (nil, let p?): #expect(child[0]._store === p, note)
        case (let c?, nil): #expect(child[0]._store === c, note)
        case (let c?, let p?): #expect(child[0]._store === (childSize <= parentSize ? p : c), note)
        }
        for (k, v) in child.enumerated() {
            // The child's root is still an ancestor: its own geometry never counts.
            #expect(v.convert(probe, to: child[0]) == inChildRoot[k], note)
            #expect(v.convert(probe, to: parent[0]) == Self.oracleConvert(probe, from: v, to: parent[0]), note)
            #expect(v.convert(probe, to: nil) == Self.oracleConvert(probe, from: v, to: parent[0]), note)
        }
        for (k, v) in parent.enumerated() {
            #expect(v.convert(probe, to: nil) == inParentRoot[k], note)
        }

        child[0].removeFromSuperview()
        #expect(all.map(Self.geometry) == before, note)
        #expect(!child[0].isInSameTree(as: parent[0]), note)
        for (k, v) in child.enumerated() { #expect(v.convert(probe, to: nil) == inChildRoot[k], note) }
        for (k, v) in parent.enumerated() { #expect(v.convert(probe, to: nil) == inParentRoot[k], note) }
        #expect((child[0]._store == nil) == (childSize == 1), note)
        #expect((parent[0]._store == nil) == (parentSize == 1), note)
    }

    @Test func geometrySurvivesMovesWithinATree() {
        let views = Self.tree(50, seed: 9)
        let before = views.map(Self.geometry)
        let root = views[0]
        var rng = SplitMix64(seed: 9)
        for _ in 0 ..< 200 {
            let a = views[Int.random(in: 1 ..< 50, using: &rng)]
            let b = views[Int.random(in: 0 ..< 50, using: &rng)]
            guard a !== b, !a.isRelativeAncestor(of: b) else { continue }
            switch Int.random(in: 0 ..< 4, using: &rng) {
            case 0: b.addSubview(a)
            case 1: b.insertSubview(a, at: Int.random(in: 0 ... b.subviews.filter { $0 !== a }.count, using: &rng))
            case 2: a.superview?.sendSubviewToBack(a)
            default: if b.subviews.count > 1 { b.exchangeSubview(at: 0, withSubviewAt: b.subviews.count - 1) }
            }
        }
        #expect(views.map(Self.geometry) == before)
        for v in views {
            #expect(v.isInSameTree(as: root))
            #expect(v.convert(CGPoint.zero, to: nil) == Self.inRootSpace(.zero, of: v).0)
        }
    }

    // MARK: convert

    @Test(arguments: sizes.filter { $0 > 0 })
    func convertToAndFromNilIsTheRootsSpace(n: Int) {
        var rng = SplitMix64(seed: 200 &+ UInt64(n))
        let views = Self.tree(n, seed: 200 &+ UInt64(n))
        let root = views[0]
        #expect(views.allSatisfy { $0.rootView === root })
        for v in views {
            let p = CGPoint(x: Self.coordinate(&rng), y: Self.coordinate(&rng))
            let up = v.convert(p, to: nil)
            #expect(up == v.convert(p, to: root), "n \(n)")
            #expect(up == Self.inRootSpace(p, of: v).0, "n \(n)")
            #expect(v.convert(up, from: nil) == p, "n \(n)")
            #expect(v.convert(up, from: root) == p, "n \(n)")
            #expect(root.convert(p, to: v) == v.convert(p, from: nil), "n \(n)")
        }
        // The root's own frame and bounds origin do not matter: nil is its own space.
        root.frame = CGRect(x: 123, y: 456, width: 7, height: 8)
        root.bounds.origin = CGPoint(x: 9, y: 10)
        #expect(root.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 1, y: 2))
        #expect(root.convert(CGPoint(x: 1, y: 2), from: nil) == CGPoint(x: 1, y: 2))
    }

    @Test func aLoneViewConvertsToItselfAndNil() {
        let v = View(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        v.bounds.origin = CGPoint(x: 3, y: 3)
        let p = CGPoint(x: 1.5, y: -2)
        #expect(v.convert(p, to: nil) == p)
        #expect(v.convert(p, from: nil) == p)
        #expect(v.convert(p, to: v) == p)
        #expect(v.convert(p, from: v) == p)
        #expect(v._store == nil, "converting does not give a lone view a store")
        #expect(v.rootView === v)
        #expect(v.isInSameTree(as: v))
        #expect(!v.isInSameTree(as: View()))
    }

    @Test(arguments: sizes.filter { $0 > 1 })
    func convertBetweenRandomPairsMatchesTheOracle(n: Int) {
        var rng = SplitMix64(seed: 300 &+ UInt64(n))
        let views = Self.tree(n, seed: 300 &+ UInt64(n))
        for q in 0 ..< 200 {
            let (a, b) = (views[Int.random(in: 0 ..< n, using: &rng)], views[Int.random(in: 0 ..< n, using: &rng)])
            let p = CGPoint(x: Self.coordinate(&rng), y: Self.coordinate(&rng))
            let note = Comment(rawValue: "n \(n), query \(q)")
            let expected = Self.oracleConvert(p, from: a, to: b)
            #expect(a.convert(p, to: b) == expected, note)
            #expect(b.convert(p, from: a) == expected, note)
            #expect(b.convert(expected, to: a) == p, note)
        }
    }

    @Test func rectsMoveTheirOriginAndKeepTheirSize() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let a = View(frame: CGRect(x: 10, y: 20, width: 100, height: 100))
        let b = View(frame: CGRect(x: 200, y: 30, width: 50, height: 50))
        b.bounds.origin = CGPoint(x: 5, y: -5)
        root.addSubview(a)
        root.addSubview(b)
        let r = CGRect(x: 1, y: 2, width: 30, height: 40)
        // a -> b: +(10, 20) - (200 - 5, 30 + 5).
        #expect(a.convert(r, to: b) == CGRect(x: -184, y: -13, width: 30, height: 40))
        #expect(b.convert(r, from: a) == CGRect(x: -184, y: -13, width: 30, height: 40))
        #expect(b.convert(CGRect(x: -184, y: -13, width: 30, height: 40), to: a) == r)
        #expect(a.convert(r, to: nil) == CGRect(x: 11, y: 22, width: 30, height: 40))
        #expect(a.convert(r, from: nil) == CGRect(x: -9, y: -18, width: 30, height: 40))
        #expect(a.convert(r, to: a) == r)
        // The point and the rect forms agree.
        #expect(a.convert(r, to: b).origin == a.convert(r.origin, to: b))
        #expect(a.convert(r, from: b).origin == a.convert(r.origin, from: b))
        // A view's bounds, converted to its superview, is its frame.
        #expect(b.convert(b.bounds, to: root) == b.frame)
        #expect(a.convert(a.bounds, to: root) == a.frame)
        #expect(root.convert(b.frame, to: b) == b.bounds)
    }

    // MARK: Misuse

    @Test func convertingBetweenTwoLoneViewsTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = View(frame: CGRect(x: 1, y: 1, width: 1, height: 1))
            let b = View()
            _ = a.convert(CGPoint.zero, to: b)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("different view trees"), "\(message)")
    }

    @Test func convertingBetweenTwoTreesTraps() async {
        await #expect(processExitsWith: .failure) {
            let r1 = View(), r2 = View()
            let a = View(), b = View()
            r1.addSubview(a)
            r2.addSubview(b)
            _ = a.convert(CGPoint.zero, to: b)
        }
        await #expect(processExitsWith: .failure) {
            let r1 = View(), r2 = View()
            let a = View(), b = View()
            r1.addSubview(a)
            r2.addSubview(b)
            _ = a.convert(CGPoint.zero, from: b)
        }
        await #expect(processExitsWith: .failure) {
            let r1 = View(), a = View()
            r1.addSubview(a)
            _ = a.convert(CGRect.zero, to: View())
        }
        await #expect(processExitsWith: .failure) {
            let r1 = View(), a = View()
            r1.addSubview(a)
            _ = View().convert(CGRect.zero, from: a)
        }
        await #expect(processExitsWith: .failure) {
            // Once removed, a subtree is another tree.
            let r1 = View(), a = View(), b = View()
            r1.addSubview(a)
            r1.addSubview(b)
            a.removeFromSuperview()
            _ = a.convert(CGPoint.zero, to: b)
        }
    }

    // MARK: Geometry leaves the index alone

    @Test(arguments: sizes.filter { $0 > 0 })
    func framesSetBetweenRelativeQueriesKeepTheKeptPositions(n: Int) throws {
        var rng = SplitMix64(seed: 400 &+ UInt64(n))
        let views = Self.tree(max(n, 2), seed: 400 &+ UInt64(n))
        // Queries keep each view's interval; geometry writes must not reset them.
        for v in views { _ = views[0].isRelativeAncestor(of: v) }
        let epochs = views.map(\._spanVersion)
        #expect(epochs.allSatisfy { $0 != 0 })
        for step in 0 ..< 3 * views.count {
            let v = views[Int.random(in: 0 ..< views.count, using: &rng)]
            switch step % 4 {
            case 0: v.frame = Self.randomGeometry(&rng).frame
            case 1: v.bounds = CGRect(origin: CGPoint(x: Self.coordinate(&rng), y: 0), size: CGSize(width: 10, height: 10))
            case 2: v.center = CGPoint(x: Self.coordinate(&rng), y: Self.coordinate(&rng))
            default: v.bounds.origin = CGPoint(x: 1, y: Self.coordinate(&rng))
            }
            let w = views[Int.random(in: 0 ..< views.count, using: &rng)]
            _ = v.isRelativeAncestor(of: w)
            _ = w.isRelativeDescendant(of: v)
            _ = v.convert(CGPoint.zero, to: w)
        }
        #expect(views.map(\._spanVersion) == epochs, "n \(n): kept positions survive geometry writes")
        // A structural change gives the tree a new version, which the kept positions do not have.
        views[views.count - 1].addSubview(View())
        let store = try #require(views[0]._store)
        #expect(!epochs.contains(store.tree._unowned.version))
    }
}
