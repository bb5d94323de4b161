import RelativeViewEngine
import RelativeViewCore
import RelativeViewFixtures
@testable import RelativeViewSnapshot
import Testing

/// The position-local check of a saved tour (`_TourCheck`), which a load runs first and in
/// pieces on two threads (eight positions at a time where the processor has AVX2, else one;
/// both are run here), must pass exactly the tours the stack check passes: a tour it
/// passes wrongly would hand back a tree with broken invariants, and one it fails wrongly
/// would end in the stack check finding nothing ("the tour is not a tree").
@Suite struct TourCheckTests {
    /// A tree's columns and index as a snapshot stores them, and the same with one field
    /// of the tour's columns changed.
    struct Damage: CustomStringConvertible {
        var column: String
        var index: Int
        var value: Int64
        var description: String { "\(column)[\(index)] = \(value)" }
    }

    /// The verdicts on `image`: the position-local check's (run whole, and in pieces on two
    /// threads), and the load's (which runs the stack check when the other fails).
    /// Calls `body` with `image`'s columns, as a load reads them in place.
    func withColumns<R>(_ image: _ColumnImage, _ body: (_ColumnPointers) -> R) -> R {
        image.generation.withUnsafeBufferPointer { generation in
        image.parent.withUnsafeBufferPointer { parent in
        image.typeID.withUnsafeBufferPointer { typeID in
        image.narrowTag.withUnsafeBufferPointer { narrowTag in
        image.span.withUnsafeBufferPointer { span in
        image.token.withUnsafeBufferPointer { token in
        image.tourTag.withUnsafeBufferPointer { tourTag in
        image.tourType.withUnsafeBufferPointer { tourType in
            body(_ColumnPointers(
                slotCount: image.slotCount, liveCount: image.liveCount, freeHead: image.freeHead, generation: generation,
                parent: parent, typeID: typeID, narrowTag: narrowTag, span: span, token: token, tourTag: tourTag, tourType: tourType))
        }}}}}}}}
    }

    func verdicts(_ image: _ColumnImage, types: Int) -> (local: Bool, inPieces: Bool, load: Result<ViewTree, _PreorderImageFlaw>) {
        withColumns(image) { columns in
            // The last type number is one no node may have (as a snapshot marks the ids it
            // lists only to keep the numbering).
            let unusable = (0 ..< types).map { $0 == types - 1 }
            let whole = ViewTree._checkTour(columns, typeCount: types, unusable: unusable, share: nil)
            // One position at a time, where the whole check took the AVX2 path.
            let scalar = ViewTree._checkTour(columns, typeCount: types, unusable: unusable, share: nil, vector: false)
            #expect(whole.sound == scalar.sound && whole.enters == scalar.enters && whole.roots == scalar.roots && whole.wide == scalar.wide)
            let share = _WorkShare<_TourCheck.Tally>()
            let helper = _SideTask { share.help() }
            let pieces = ViewTree._checkTour(columns, typeCount: types, unusable: unusable, share: share)
            helper.wait()
            #expect(whole.enters == pieces.enters && whole.roots == pieces.roots && whole.wide == pieces.wide)
            let load = Result { () throws(_PreorderImageFlaw) in
                try ViewTree(validatingColumns: columns, typeCount: types, unusedTypes: unusable, extras: _PreorderImage(), owner: nil)
            }
            // Of a sound tour, whether it enters its slots in slot order (0, 1, 2, ...), as
            // each way of checking says it and as the loaded tree keeps it (a query index
            // then reads each end from the spans without scanning them for that order).
            if whole.sound && whole.enters == image.liveCount {
                let entered = image.token.prefix(2 * image.liveCount).filter { $0 >= 0 }
                let inOrder = entered.elementsEqual(0 ..< Int32(entered.count))
                #expect(whole.enteredInSlotOrder == inOrder && scalar.enteredInSlotOrder == inOrder && pieces.enteredInSlotOrder == inOrder)
                if case .success(let tree) = load {
                    #expect((tree._storage.slotOrderVersion == tree._storage.version) == inOrder)
                }
            }
            return (whole.sound && whole.enters == image.liveCount, pieces.sound && pieces.enters == image.liveCount, load)
        }
    }

    /// One random change to a field the tour check reads, of a live slot or a tour position.
    func damage(_ image: inout _ColumnImage, types: Int, near focus: Int?, using rng: inout SplitMix64) -> Damage {
        let positions = 2 * image.liveCount
        func position() -> Int {
            guard let focus else { return Int.random(in: 0 ..< positions, using: &rng) }
            return min(positions - 1, max(0, focus + Int.random(in: -3 ... 3, using: &rng)))
        }
        func slot() -> Int {
            let t = image.token[position()]
            return Int(t >= 0 ? t : ~t)
        }
        func other() -> Int32 {
            switch Int.random(in: 0 ..< 4, using: &rng) {
            case 0: -1
            case 1: Int32(image.slotCount + Int.random(in: 0 ..< 3, using: &rng))
            default: Int32.random(in: 0 ..< Int32(image.slotCount), using: &rng)
            }
        }
        switch Int.random(in: 0 ..< 9, using: &rng) {
        case 8:
            // A type changed with its copy: out of the table, or one no node may have.
            let x = slot()
            let type = [Int32(-1), Int32(types), Int32(types + 7), Int32(types - 1)][Int.random(in: 0 ..< 4, using: &rng)]
            image.typeID[x] = type
            if let p = image.token.firstIndex(of: Int32(x)) { image.tourType[p] = type }
            return Damage(column: "typeID and its copy", index: x, value: Int64(type))
        case 0:
            let (p, q) = (position(), position())
            image.token.swapAt(p, q)
            return Damage(column: "token swap", index: p, value: Int64(q))
        case 1:
            let p = position()
            let t = other()
            image.token[p] = Bool.random(using: &rng) ? t : ~t
            return Damage(column: "token", index: p, value: Int64(image.token[p]))
        case 2:
            let x = slot()
            image.parent[x] = other()
            return Damage(column: "parent", index: x, value: Int64(image.parent[x]))
        case 3:
            let x = slot()
            let half = UInt64(UInt32(position()))
            image.span[x] = Bool.random(using: &rng) ? (image.span[x] & ~0xFFFF_FFFF) | half : (image.span[x] & 0xFFFF_FFFF) | half << 32
            return Damage(column: "span", index: x, value: Int64(bitPattern: image.span[x]))
        case 4:
            let p = position()
            image.tourTag[p] &+= Bool.random(using: &rng) ? 1 : Int32.min
            return Damage(column: "tourTag", index: p, value: Int64(image.tourTag[p]))
        case 5:
            let p = position()
            image.tourType[p] = Int32.random(in: -2 ... 3, using: &rng)
            return Damage(column: "tourType", index: p, value: Int64(image.tourType[p]))
        case 6:
            let x = slot()
            image.narrowTag[x] &+= 1
            return Damage(column: "narrowTag", index: x, value: Int64(image.narrowTag[x]))
        default:
            let x = slot()
            image.typeID[x] = Int32.random(in: -1 ... 3, using: &rng)
            return Damage(column: "typeID", index: x, value: Int64(image.typeID[x]))
        }
    }

    /// With `moreTypes`, a type table that many entries longer (the AVX2 path takes a type's
    /// usability from a word of bits under 32 types, from a table at 32 or more).
    func expectAgreement(on tree: ViewTree, trials: Int, focus: [Int?], seed: UInt64, moreTypes: Int = 0) {
        let sound = tree._columnImage()
        let types = Int(sound.typeID.max() ?? 0) + 2 + moreTypes
        var rng = SplitMix64(seed: seed)
        let intact = verdicts(sound, types: types)
        #expect(intact.local && intact.inPieces && (try? intact.load.get()) != nil)
        var failed = 0
        for trial in 0 ..< trials {
            var image = sound
            let damage = damage(&image, types: types, near: focus[trial % focus.count], using: &rng)
            let (local, inPieces, load) = verdicts(image, types: types)
            #expect(local == inPieces, "\(damage)")
            switch load {
            case .success(let loaded):
                #expect(local, "the stack check passed what the position-local check did not: \(damage)")
                loaded._checkInvariants()
            case .failure(let flaw):
                failed += 1
                #expect(!local, "the position-local check passed a damaged tour: \(damage): \(flaw.reason)")
                #expect(flaw.reason != "the tour is not a tree", "the stack check found nothing: \(damage)")
            }
        }
        // Most changes break the tree (some, such as a swap of a position with itself, do not).
        #expect(failed > trials / 2)
    }

    @Test func randomTreesWithOneFieldChanged() {
        for (k, shape) in [TreeShape.random, .balanced, .chain, .wide].enumerated() {
            let tree = CoreVsNaive(spec: TreeSpec(shape: shape, nodes: 300, seed: UInt64(k + 1))).tree
            expectAgreement(on: tree, trials: 400, focus: [nil], seed: UInt64(100 + k))
        }
        expectAgreement(on: CoreVsNaive(spec: TreeSpec(shape: .random, nodes: 300, seed: 5)).tree, trials: 400, focus: [nil], seed: 55, moreTypes: 40)
        // Slots out of tour order, free slots, and several roots.
        var tree = CoreVsNaive(spec: TreeSpec(shape: .random, nodes: 300, seed: 9)).tree
        let ids = Array(tree.descendants(of: tree.roots[0]))
        tree.removeSubtree(ids[40])
        tree.removeSubtree(ids[7])
        tree.detach(ids[120])
        for (k, id) in ids.filter(tree.contains).prefix(60).enumerated() where k % 3 == 1 {
            _ = tree.appendChild(tag: k, type: tree.typeID(of: ids[0]), to: id)
        }
        expectAgreement(on: tree, trials: 400, focus: [nil], seed: 99)
    }

    /// A random tree built in document order (a builder's, an import's): its slots are in
    /// pre-order, so the AVX2 path reads most runs of eight positions without gathers. Its
    /// tags are all narrow (`verdicts` loads with no wide-tag table).
    func preOrderTree(nodes: Int, seed: UInt64, types: Int = 3) -> ViewTree {
        var rng = SplitMix64(seed: seed)
        var builder = ViewTreeBuilder()
        let ids = (0 ..< types).map { TypeRegistry.shared.typeID(named: "PreOrderNode\($0)") }
        var depth = 0
        _ = builder.open(tag: 0, type: ids[0])
        for _ in 1 ..< nodes {
            // Close some open nodes (never the root), then open a leaf-to-be or a parent.
            while depth > 0 && Int.random(in: 0 ..< 3, using: &rng) == 0 {
                builder.close()
                depth -= 1
            }
            let tag = Int.random(in: -2 ... 40, using: &rng)
            let type = ids[Int.random(in: 0 ..< types, using: &rng)]
            if Int.random(in: 0 ..< 2, using: &rng) == 0 {
                _ = builder.appendLeaf(tag: tag, type: type)
            } else {
                _ = builder.open(tag: tag, type: type)
                depth += 1
            }
        }
        while depth >= 0 {
            builder.close()
            depth -= 1
        }
        return builder.finish()
    }

    /// Trees in pre-order (the AVX2 path's runs without gathers, with the exits' gathers
    /// masked), changed one field at a time: the same verdicts as the stack check, whole,
    /// in pieces and one position at a time; and the path is taken.
    @Test func preOrderTreesWithOneFieldChanged() throws {
        for (k, nodes) in [300, 1_000, 4_000].enumerated() {
            let tree = preOrderTree(nodes: nodes, seed: UInt64(30 + k))
            let image = tree._columnImage()
            #expect(image.slotCount == nodes && (0 ..< nodes).allSatisfy { image.token[Int(UInt32(truncatingIfNeeded: image.span[$0]))] == Int32($0) })
            expectAgreement(on: tree, trials: 400, focus: [nil], seed: UInt64(300 + k))
            if _TourCheck.hasVectorPath {
                let ordered = orderedRuns(image)
                #expect(ordered > nodes / 16, "\(ordered) runs of eight without gathers, for \(nodes) nodes")
            }
        }
        // More types than a word of bits holds: the table of usable types.
        expectAgreement(on: preOrderTree(nodes: 500, seed: 41, types: 40), trials: 300, focus: [nil], seed: 410, moreTypes: 40)
        // Wide tags (the tag column's sentinel), counted the same by both paths.
        var image = preOrderTree(nodes: 2_000, seed: 42)._columnImage()
        for x in stride(from: 3, to: image.slotCount, by: 5) {
            image.narrowTag[x] = Int32.min
            image.tourTag[Int(UInt32(truncatingIfNeeded: image.span[x]))] = Int32.min
        }
        let (vector, scalar) = (tally(image, vector: true), tally(image, vector: false))
        #expect(vector.sound && scalar.sound && vector.wide == 400 && scalar.wide == 400 && vector.enters == 2_000 && scalar.roots == 1 && vector.roots == 1)
        if _TourCheck.hasVectorPath { #expect(vector.ordered > 2_000 / 16) }
    }

    /// The runs of eight positions the AVX2 path read without gathers, on `image` as it is.
    func orderedRuns(_ image: _ColumnImage) -> Int { tally(image, vector: true).ordered }

    /// The position-local check's tally of `image`, on the AVX2 path (where the processor
    /// has it) or one position at a time.
    func tally(_ image: _ColumnImage, vector: Bool) -> _TourCheck.Tally {
        withColumns(image) { columns in
            let types = Int(image.typeID.max() ?? 0) + 1
            return ViewTree._checkTour(columns, typeCount: types, unusable: [Bool](repeating: false, count: types), share: nil, vector: vector)
        }
    }

    /// A tour of several pieces, changed at and around the pieces' edges, where a piece
    /// starts from the node open before it.
    @Test func changesAtTheEdgesOfPieces() {
        let tree = largeTree(nodes: 70_000, type: "TourCheckNode", fanOut: 3, tags: 50, idEvery: 1_000_000, id: { "\($0)" })
        let edges: [Int?] = [ViewTree.tourPiece - 1, ViewTree.tourPiece, 2 * ViewTree.tourPiece, nil]
        expectAgreement(on: tree, trials: 60, focus: edges, seed: 7)
    }
}
