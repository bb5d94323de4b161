import Foundation
import Testing
@testable import RelativeView
import RelativeViewFixtures

/// A user's own class, loaded back only through a maker registered for it.
final class ProfileCell: TableViewCell {
    var loadedByMaker = false
}

/// View trees saved through their store and loaded back as views of their classes.
@Suite struct ViewSnapshotTests {
    /// The views of a tree in pre-order, with their depth.
    func preOrder(_ root: View) -> [(view: View, depth: Int)] {
        var out: [(View, Int)] = []
        var stack: [(View, Int)] = [(root, 0)]
        while let (view, depth) = stack.popLast() {
            out.append((view, depth))
            stack.append(contentsOf: view.subviews.reversed().map { ($0, depth + 1) })
        }
        return out
    }

    /// Whether two trees have the same shape, classes, tags and geometry, view by view.
    func expectSameTree(_ a: View, _ b: View, sourceLocation: SourceLocation = #_sourceLocation) {
        let (x, y) = (preOrder(a), preOrder(b))
        #expect(x.count == y.count, sourceLocation: sourceLocation)
        for (p, q) in zip(x, y) {
            guard type(of: p.view) == type(of: q.view), p.depth == q.depth, p.view.tag == q.view.tag,
                  p.view.frame == q.view.frame, p.view.bounds == q.view.bounds,
                  p.view.subviews.count == q.view.subviews.count
            else {
                Issue.record("differ at \(p.view) / \(q.view)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Test(arguments: TreeShape.allCases, [1, 2, 10, 100, 5_000])
    func roundTripsEveryShapeWithItsClassesAndAnswers(shape: TreeShape, nodes: Int) throws {
        let spec = TreeSpec(shape: shape, nodes: nodes, seed: 7)
        var views: [View] = []
        spec.buildFacade(into: &views)
        for (i, view) in views.enumerated() where i % 3 == 0 {
            view.frame = CGRect(x: Double(i), y: -0.5 * Double(i), width: 10.25, height: Double(i % 17))
        }
        let root = views[0]
        let loaded = try View.loadSnapshot(root.snapshot())
        #expect(loaded !== root)
        expectSameTree(root, loaded)
        loaded._store?.tree._checkInvariants()
        // The loaded views answer as the saved ones do.
        let (x, y) = (preOrder(root).map(\.view), preOrder(loaded).map(\.view))
        var rng = SplitMix64(seed: 3)
        for _ in 0 ..< 200 {
            let (i, j) = (Int.random(in: 0 ..< x.count, using: &rng), Int.random(in: 0 ..< x.count, using: &rng))
            #expect(x[i].isRelativeAncestor(of: x[j]) == y[i].isRelativeAncestor(of: y[j]))
            #expect(x[i].isRelativeSibling(of: x[j]) == y[i].isRelativeSibling(of: y[j]))
        }
        let types = StockCatalog.views
        #expect(root.groupDescendants(by: types).mapValues(\.count) == loaded.groupDescendants(by: types).mapValues(\.count))
        #expect(root.findViews(subclassOf: Control.self).count == loaded.findViews(subclassOf: Control.self).count)
        // The loaded tree is an ordinary one: it takes changes, and saves the same bytes again.
        #expect(loaded.snapshot() == root.snapshot())
        let extra = Label()
        loaded.addSubview(extra)
        #expect(extra.isRelativeDescendant(of: loaded))
        loaded._store?.tree._checkInvariants()
    }

    /// A store's views are freed with their root, loaded ones as much as built ones.
    @Test func loadedViewsAreOwnedAsBuiltOnesAre() throws {
        let root = View()
        for i in 0 ..< 10 {
            let child = Label()
            child.tag = i
            root.addSubview(child)
            child.addSubview(Button())
        }
        let bytes = root.snapshot()
        weak var weakLeaf: View?
        weak var weakRoot: View?
        do {
            let loaded = try View.loadSnapshot(bytes)
            weakRoot = loaded
            weakLeaf = loaded.subviews[3].subviews[0]
            #expect(weakLeaf is Button)
        }
        #expect(weakRoot == nil)
        #expect(weakLeaf == nil)
        // A subview kept by its user outlives its loaded root, as a built one does.
        var kept: View?
        do {
            let loaded = try View.loadSnapshot(bytes)
            kept = loaded.subviews[4]
        }
        #expect(kept?.superview == nil)
        #expect(kept?.tag == 4)
        #expect(kept?.subviews.count == 1)
    }

    @Test func aSubviewSavesItsSubtreeAndALoneViewItself() throws {
        let root = View()
        let middle = Label()
        middle.tag = 5
        middle.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        root.addSubview(middle)
        middle.addSubview(ImageView())
        root.addSubview(Button())
        let part = try View.loadSnapshot(middle.snapshot())
        expectSameTree(middle, part)
        #expect(part is Label && part.superview == nil && part.subviews.count == 1)

        let lone = Slider(frame: CGRect(x: 5, y: 6, width: 7, height: 8))
        lone.tag = -3
        let back = try View.loadSnapshot(lone.snapshot())
        #expect(back is Slider)
        #expect(back.tag == -3 && back.frame == lone.frame && back.subviews.isEmpty)
    }

    @Test func aUserClassNeedsAMakerOrComesBackPlain() throws {
        let root = TableView()
        let cell = ProfileCell()
        cell.tag = 9
        root.addSubview(cell)
        let bytes = root.snapshot()

        // The stock factory does not know the class: an error that names it.
        let error = #expect(throws: SnapshotError.self) { try View.loadSnapshot(bytes) }
        #expect(error?.reason.contains("\"ProfileCell\"") == true)
        #expect(error?.reason.contains("register") == true)
        #expect((error?.offset ?? 0) > 0)

        var factory = ViewFactory.stock
        factory.register(ProfileCell.self) {
            let cell = ProfileCell()
            cell.loadedByMaker = true
            cell.tag = 1_000  // replaced by the node's
            cell.frame = CGRect(x: 9, y: 9, width: 9, height: 9)  // replaced too
            return cell
        }
        let loaded = try View.loadSnapshot(bytes, factory: factory)
        let back = try #require(loaded.subviews.first as? ProfileCell)
        #expect(back.loadedByMaker && back.tag == 9 && back.frame == .zero)
        #expect(loaded.groupDescendants(by: [ProfileCell.self])["ProfileCell"]?.count == 1)

        var plain = ViewFactory.stock
        plain.plainViewsForUnknownTypes = true
        let fallback = try View.loadSnapshot(bytes, factory: plain)
        let view = try #require(fallback.subviews.first)
        #expect(type(of: view) == View.self && view.tag == 9)
        // The node's type is the view's class, so queries by class agree with the views.
        #expect(fallback.findViews(subclassOf: TableViewCell.self).isEmpty)
        #expect(fallback.groupDescendants(by: [View.self])["View"]?.count == 1)
    }

    /// A core tree of bare names loads by name too: here as plain views.
    @Test func aCoreTreeLoadsThroughTheFactoryByName() throws {
        var tree = ViewTree()
        let a = tree.makeNode(tag: 1, type: TypeRegistry.shared.typeID(named: "Label"))
        tree.appendChild(tag: 2, type: TypeRegistry.shared.typeID(named: "div"), to: a)
        #expect(throws: SnapshotError.self) { try View.loadSnapshot(tree.snapshot()) }
        var factory = ViewFactory.stock
        factory.plainViewsForUnknownTypes = true
        let root = try View.loadSnapshot(tree.snapshot(), factory: factory)
        #expect(root is Label && root.tag == 1)
        #expect(type(of: root.subviews[0]) == View.self && root.subviews[0].tag == 2)
    }

    /// Plain views for unknown types come from the factory's own `View` maker, if it has one.
    @Test func plainViewsUseTheRegisteredViewMaker() throws {
        final class Counter: @unchecked Sendable { var made = 0 }
        var tree = ViewTree()
        let root = tree.makeNode(tag: 0, type: TypeRegistry.shared.typeID(named: "SomethingUnknown"))
        tree.appendChild(tag: 1, type: TypeRegistry.shared.typeID(for: View.self), to: root)
        let counter = Counter()
        var factory = ViewFactory.stock
        factory.register(View.self) {
            counter.made += 1
            return View()
        }
        factory.plainViewsForUnknownTypes = true
        let loaded = try View.loadSnapshot(tree.snapshot(), factory: factory)
        #expect(counter.made == 2)
        #expect(loaded.subviews.count == 1 && type(of: loaded) == View.self)
    }

    /// A damaged text in a forest: the text's flaw, from memory and from a file alike (the
    /// one-root check comes after every check of the bytes).
    @Test func aTextFlawComesBeforeTheOneRootCheck() throws {
        var forest = ViewTree()
        let id = TypeRegistry.shared.typeID(for: View.self)
        let first = forest.makeNode(tag: 0, type: id)
        forest.setAttribute(.key, "first", of: first)
        forest.makeNode(tag: 1, type: id)
        var bytes = forest.snapshot()
        // The key column's first start, made to point past its bytes, checksum repaired.
        let text = Array("first".utf8)
        let at = try #require((0 ..< bytes.count - text.count).last { Array(bytes[$0 ..< $0 + text.count]) == text })
        // The texts follow the starts: the one start (4 bytes, then 4 of padding) is the
        // 8-byte word before the text's length byte that holds 0.
        var startOffset = at - 1 - 8
        while startOffset > 0 && bytes[startOffset ..< startOffset + 8].contains(where: { $0 != 0 }) { startOffset -= 8 }
        withUnsafeBytes(of: UInt32(1 << 30).littleEndian) { for k in 0 ..< 4 { bytes[startOffset + k] = $0[k] } }
        bytes.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
        let fromMemory = try #require(#expect(throws: SnapshotError.self) { try View.loadSnapshot(bytes) })
        #expect(fromMemory.reason.hasPrefix("key: slot 0's text starts at"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("forest-\(UUID().uuidString).rvtree").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        for mapped in [true, false] {
            let fromFile = #expect(throws: SnapshotError.self) { try View.loadSnapshot(contentsOf: path, mapped: mapped) }
            #expect(fromFile?.offset == fromMemory.offset && fromFile?.reason == fromMemory.reason)
        }
    }

    @Test func anEmptyTreeOrAForestIsNotAViewTree() throws {
        let empty = #expect(throws: SnapshotError.self) { try View.loadSnapshot(ViewTree().snapshot()) }
        #expect(empty?.reason.contains("no node") == true)

        var forest = ViewTree()
        let id = TypeRegistry.shared.typeID(for: View.self)
        let first = forest.makeNode(tag: 0, type: id)
        forest.appendChild(tag: 1, type: id, to: first)
        forest.makeNode(tag: 2, type: id)
        let bytes = forest.snapshot()
        let error = try #require(#expect(throws: SnapshotError.self) { try View.loadSnapshot(bytes) })
        #expect(error.reason.contains("2 roots"))
        // The offset is the second root's parent field: -1 there.
        let field = bytes[error.offset ..< error.offset + 4]
        #expect(Array(field) == [0xFF, 0xFF, 0xFF, 0xFF])
        // The core loads the same bytes as the forest they are.
        #expect(try ViewTree(snapshot: bytes).rootCount == 2)
    }

    @Test func damagedBytesAreAnErrorNotAView() throws {
        let root = View()
        root.addSubview(Label())
        var bytes = root.snapshot()
        bytes[bytes.count - 9] ^= 0x10  // the last byte before the checksum, past the header
        let error = #expect(throws: SnapshotError.self) { try View.loadSnapshot(bytes) }
        #expect(error?.reason.contains("checksum") == true)
        #expect(throws: SnapshotError.self) { try View.loadSnapshot(Array(root.snapshot().dropLast())) }
    }

    @Test(arguments: [true, false])
    func filesRoundTrip(mapped: Bool) throws {
        let spec = TreeSpec(shape: .balanced, nodes: 300, seed: 2)
        var views: [View] = []
        spec.buildFacade(into: &views)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("views-\(UUID().uuidString).rvtree").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try views[0].writeSnapshot(to: path)
        let loaded = try View.loadSnapshot(contentsOf: path, mapped: mapped)
        expectSameTree(views[0], loaded)
        let missing = #expect(throws: SnapshotError.self) { try View.loadSnapshot(contentsOf: path + ".none", mapped: mapped) }
        #expect(missing?.path == path + ".none")
    }

    @Test func aMakerOfTheWrongClassTraps() async {
        await #expect(processExitsWith: .failure) {
            var factory = ViewFactory.stock
            factory.register(Label.self) { FancyLabel() }
            let root = View()
            root.addSubview(Label())
            _ = try? View.loadSnapshot(root.snapshot(), factory: factory)
        }
    }
}

final class FancyLabel: Label {}
