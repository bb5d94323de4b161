import Testing
import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// The `View` facade and the naive core, driven by the same random operations through the
/// same UIKit-style API; every query is compared element by element, in order. Dropping
/// the last reference to a detached subtree frees it in both.
struct FacadeVsNaiveTests {
    struct Model {
        var views: [View] = []
        var naive: [NaiveView] = []
        var handleOfView: [ObjectIdentifier: Int] = [:]
        var handleOfNaive: [ObjectIdentifier: Int] = [:]

        mutating func add(type k: Int, tag: Int, under parent: Int?) {
            let v = StockCatalog.makeView(k)
            let n = StockCatalog.makeNaive(k)
            v.tag = tag
            n.tag = tag
            if let parent {
                views[parent].addSubview(v)
                naive[parent].addSubview(n)
            }
            handleOfView[ObjectIdentifier(v)] = views.count
            handleOfNaive[ObjectIdentifier(n)] = naive.count
            views.append(v)
            naive.append(n)
        }

        /// Drops the model's references to these views (the trees may still hold them).
        mutating func forget(_ drop: Set<Int>) {
            let keep = views.indices.filter { !drop.contains($0) }
            views = keep.map { views[$0] }
            naive = keep.map { naive[$0] }
            handleOfView = Dictionary(uniqueKeysWithValues: views.enumerated().map { (ObjectIdentifier($1), $0) })
            handleOfNaive = Dictionary(uniqueKeysWithValues: naive.enumerated().map { (ObjectIdentifier($1), $0) })
        }

        func h(_ v: View) -> Int { handleOfView[ObjectIdentifier(v)] ?? -1 }
        func h(_ n: NaiveView) -> Int { handleOfNaive[ObjectIdentifier(n)] ?? -1 }
    }

    /// Weak references to a subtree's root in both cores, checked once nothing in the loop holds it.
    struct Dropped {
        weak var view: View?
        weak var naive: NaiveView?
    }

    @Test("random mutations and queries on View agree with NaiveView", arguments: [11, 12, 13, 14] as [UInt64])
    func randomSequence(seed: UInt64) {
        let queries = run(seed: seed, steps: 10_000)
        #expect(queries > 4_000, "seed \(seed): too few queries were checked")
    }

    /// `steps` random steps from `seed`, each a mutation or a query checked against the
    /// naive core, and before each a check that the last dropped subtree was freed in both
    /// cores (weak references); returns the number of queries. Used by the soak too.
    func run(seed: UInt64, steps: Int) -> Int {
        var rng = SplitMix64(seed: seed)
        var m = Model()
        for _ in 0 ..< 3 { m.add(type: 0, tag: 0, under: nil) }
        var queries = 0
        var dropped = Dropped()
        for step in 0 ..< steps {
            let note = Comment(rawValue: "seed \(seed), step \(step)")
            #expect(dropped.view == nil && dropped.naive == nil, note)
            let count = m.views.count
            let a = Int.random(in: 0 ..< count, using: &rng)
            // One pair in eight is a node with itself: never its own relative.
            let b = Int.random(in: 0 ..< 8, using: &rng) == 0 ? a : Int.random(in: 0 ..< count, using: &rng)
            let (va, vb, na, nb) = (m.views[a], m.views[b], m.naive[a], m.naive[b])
            // Phases of 500 steps alternate: mostly mutations (queries walk a stale index),
            // then mostly queries (the index is rebuilt and queries use it).
            let queryPhase = (step / 500) % 2 == 1
            let roll = queryPhase && Int.random(in: 0 ..< 50, using: &rng) != 0 ? 99 : Int.random(in: 0 ..< 100, using: &rng)
            switch roll {
            case 0 ..< 22 where count < 400:
                m.add(type: Int.random(in: 0 ..< StockCatalog.names.count, using: &rng), tag: rng.tag(), under: a)
            case 0 ..< 22:
                // Detach a subtree and drop every reference the model holds to it: both cores free it.
                guard a >= 3 else { continue }
                dropped = Dropped(view: va, naive: na)
                let handles = Set([a] + na.recursiveSubviews.map(m.h))
                va.removeFromSuperview()
                na.removeFromSuperview()
                m.forget(handles)
            case 22 ..< 34:
                guard a != b, !na.isRelativeAncestor(of: nb) else { continue }
                switch Int.random(in: 0 ..< 4, using: &rng) {
                case 0:
                    vb.addSubview(va)
                    nb.addSubview(na)
                case 1:
                    let i = Int.random(in: 0 ... nb.subviews.filter { $0 !== na }.count, using: &rng)
                    vb.insertSubview(va, at: i)
                    nb.insertSubview(na, at: i)
                default:
                    guard let sibling = nb.subviews.filter({ $0 !== na }).randomElement(using: &rng) else { continue }
                    let s = m.views[m.h(sibling)]
                    if Bool.random(using: &rng) {
                        vb.insertSubview(va, belowSubview: s)
                        nb.insertSubview(na, belowSubview: sibling)
                    } else {
                        vb.insertSubview(va, aboveSubview: s)
                        nb.insertSubview(na, aboveSubview: sibling)
                    }
                }
            case 34 ..< 38:
                va.removeFromSuperview()
                na.removeFromSuperview()
            case 38 ..< 42:
                if Bool.random(using: &rng) {
                    va.superview?.sendSubviewToBack(va)
                    na.superview?.sendSubviewToBack(na)
                } else {
                    va.superview?.bringSubviewToFront(va)
                    na.superview?.bringSubviewToFront(na)
                }
            case 42 ..< 45:
                let n = na.subviews.count
                guard n > 0 else { continue }
                let (i, j) = (Int.random(in: 0 ..< n, using: &rng), Int.random(in: 0 ..< n, using: &rng))
                va.exchangeSubview(at: i, withSubviewAt: j)
                na.exchangeSubview(at: i, withSubviewAt: j)
            case 45 ..< 50:
                let tag = rng.tag()
                va.tag = tag
                na.tag = tag
            default:
                queries += 1
                check(m, a, b, &rng, note)
            }
        }
        return queries
    }

    static func root(of view: NaiveView) -> NaiveView {
        sequence(first: view, next: { $0.superview }).reversed().first!
    }

    func check(_ m: Model, _ a: Int, _ b: Int, _ rng: inout SplitMix64, _ note: Comment) {
        let (va, vb, na, nb) = (m.views[a], m.views[b], m.naive[a], m.naive[b])
        let tags = rng.tags()
        let types = rng.typeIndices()
        switch FacadeCheck.allCases.randomElement(using: &rng)! {
        case .query(.convertPoint) where Self.root(of: na) !== Self.root(of: nb):
            // A point converts only within one tree (both implementations trap otherwise).
            break
        case .query(let q):
            let (facade, naiveCore) = (FacadeQuerying(), NaiveQuerying())
            #expect(
                facade.answer(q, va, vb, tags: tags, types: facade.typeKeys(types), closureKey: conformanceKey, handle: m.h)
                    == naiveCore.answer(q, na, nb, tags: tags, types: naiveCore.typeKeys(types), closureKey: conformanceKey, handle: m.h),
                "\(q) \(note)")
        case .recursiveSubviews:
            #expect(va.recursiveSubviews.map(m.h) == na.recursiveSubviews.map(m.h), note)
            #expect(va.findViews(subclassOf: Control.self).map(m.h) == na.findViews(subclassOf: NaiveView.Control.self).map(m.h), note)
        case .viewWithTag:
            let tag = tags.first ?? 0
            #expect(va.viewWithTag(tag).map(m.h) == na.viewWithTag(tag).map(m.h), note)
            #expect(va.isDescendant(of: vb) == na.isDescendant(of: nb), note)
        case .structure:
            #expect(va.superview.map(m.h) == na.superview.map(m.h), note)
            #expect(va.subviews.map(m.h) == na.subviews.map(m.h), note)
            #expect(va.tag == na.tag, note)
        }
    }
}

/// What one step of the facade's conformance run asks both implementations: a query of
/// the table, or one of UIKit's own answers.
enum FacadeCheck: CaseIterable {
    case query(RelativeQuery)
    case recursiveSubviews
    case viewWithTag
    case structure

    static let allCases: [FacadeCheck] = RelativeQuery.allCases.map(query) + [.recursiveSubviews, .viewWithTag, .structure]
}
