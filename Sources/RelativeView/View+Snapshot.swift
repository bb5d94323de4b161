import RelativeViewCore
import RelativeViewSnapshot

// A view tree saves through its store's `ViewTree` (the snapshot format of
// `RelativeViewSnapshot`) and loads back as a new store whose views a `ViewFactory` makes,
// one per node, of the class each node was saved as.

/// How a loaded snapshot's nodes become views: a maker for each view class, found by the
/// name a node's type was saved under (`String(describing:)` of its class).
///
/// `View` has no required initializer, so a class cannot be instantiated from its metatype:
/// each class a snapshot may hold needs a maker. ``stock`` knows ``View`` and the stock
/// subclasses; add your own with ``register(_:make:)``. A type the factory does not know is
/// an error when the snapshot loads, unless ``plainViewsForUnknownTypes`` is set, which
/// makes it a plain ``View`` (and the node's type `View`, so that queries by class agree
/// with the views: the name is not kept).
///
/// What the tree holds comes back: structure, child order, tags, frames and bounds, and each
/// view's class. What lives in a view object outside the tree does not: a label's text and
/// font, a button's title, an image view's image, a root's ``View/screenScale`` are as the
/// maker leaves them.
public struct ViewFactory {
    /// The makers, by class name.
    var makers: [String: (type: View.Type, make: () -> View)] = [:]

    /// Whether a type with no maker loads as a plain ``View`` rather than failing; `false`
    /// by default, so that no class is lost without a word.
    ///
    /// - Complexity: O(1)
    public var plainViewsForUnknownTypes = false

    /// A factory that knows only ``View``.
    ///
    /// - Complexity: O(1)
    public init() {
        register(View.self) { View() }
    }

    /// ``View`` and the stock subclasses (``Control``, ``Button``, ``Label``, ``ImageView``,
    /// ``TextField``, ``Slider``, ``ScrollView``, ``TableView``, ``TableViewCell``), each
    /// made with `init()`.
    ///
    /// - Complexity: O(1)
    public static var stock: ViewFactory {
        var factory = ViewFactory()
        factory.register(Control.self) { Control() }
        factory.register(Button.self) { Button() }
        factory.register(Label.self) { Label() }
        factory.register(ImageView.self) { ImageView() }
        factory.register(TextField.self) { TextField() }
        factory.register(Slider.self) { Slider() }
        factory.register(ScrollView.self) { ScrollView() }
        factory.register(TableView.self) { TableView() }
        factory.register(TableViewCell.self) { TableViewCell() }
        return factory
    }

    /// Makes the nodes saved as `type` (by its name, `String(describing:)`) with `make`,
    /// replacing an earlier maker of that class.
    ///
    /// `make` must return a new view of exactly `type`, with no superview and no subviews;
    /// its tag and geometry are replaced by the node's. Traps if another class of the same
    /// name is already registered (two classes that print the same, such as nested types of
    /// one name, cannot be told apart in a snapshot).
    /// - Complexity: O(1)
    public mutating func register<V: View>(_ type: V.Type, make: @escaping () -> V) {
        let name = String(describing: type)
        if let existing = makers[name] {
            precondition(existing.type == type, "ViewFactory: \(type) and \(existing.type) are both named \"\(name)\"; a snapshot names classes, so it cannot tell them apart")
        }
        makers[name] = (type, make)
    }
}

extension View {
    /// A snapshot of this view and its subviews (see `ViewTree.snapshot()` for the format):
    /// its tree's structure, tags, types (by class name) and geometry. For the root of a
    /// tree it is the store's tree as it stands, node ids included; for any other view, a
    /// copy of its subtree.
    ///
    /// - Complexity: O(n), n the size of the view's subtree (its tree's slots, for a root).
    public func snapshot() -> [UInt8] {
        _snapshotTree().snapshot()
    }

    /// Writes ``snapshot()`` to `path`, as `ViewTree.writeSnapshot(to:)` does: to a new
    /// file, renamed over `path` once whole.
    ///
    /// - Throws: `SnapshotError` naming the system call that failed.
    /// - Complexity: O(n), n the size of the view's subtree.
    public func writeSnapshot(to path: String) throws(SnapshotError) {
        try _snapshotTree().writeSnapshot(to: path)
    }

    /// The view tree a snapshot holds, as a new tree whose root is returned: every node
    /// becomes a view of the class it was saved as, made by `factory` (see ``ViewFactory``).
    ///
    /// The bytes are checked as untrusted input, as `ViewTree(snapshot:)` checks them; a
    /// snapshot must also hold exactly one root, and each of its types must be known to
    /// `factory`. The views are made in slot order.
    ///
    /// - Throws: `SnapshotError` with the byte offset of the first defect found: a flaw
    ///   in the bytes, no node or several roots, or a type `factory` has no maker for.
    /// - Complexity: O(n + bytes), plus the makers' calls.
    public static func loadSnapshot(_ bytes: [UInt8], factory: ViewFactory = .stock) throws(SnapshotError) -> View {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(SnapshotError) in try _loadSnapshot(raw, path: nil, owner: nil, factory: factory) }
        }
        return try result.get()
    }

    /// The view tree the snapshot file at `path` holds, checked and made as
    /// ``loadSnapshot(_:factory:)`` does; `mapped` maps the file rather than reading it, as
    /// in `ViewTree(contentsOfSnapshot:mapped:)`.
    ///
    /// - Throws: `SnapshotError`: the system call that failed, or the first defect found.
    /// - Complexity: O(n + bytes), plus the makers' calls.
    public static func loadSnapshot(contentsOf path: String, mapped: Bool = true, factory: ViewFactory = .stock) throws(SnapshotError) -> View {
        try ViewTree._withSnapshotFile(path, mapped: mapped) { (bytes, owner) throws(SnapshotError) in
            try _loadSnapshot(bytes, path: path, owner: owner, factory: factory)
        }
    }

    /// The tree ``snapshot()`` saves: the store's own for a root, else a copy.
    final func _snapshotTree() -> ViewTree {
        guard let store = _store else {
            var tree = ViewTree()
            let node = tree.makeNode(tag: _loneTag, type: TypeRegistry.shared.typeID(for: type(of: self)))
            if let extras = _extras, !extras.geometryIsZero {
                tree.setFrameOrigin(extras.frameOrigin, of: node)
                tree.setFrameSize(extras.frameSize, of: node)
                tree.setBoundsOrigin(extras.boundsOrigin, of: node)
            }
            return tree
        }
        // A store holds one connected tree, so its root's snapshot is the store's tree.
        if store.tree.parent(of: _node) == nil { return store.tree }
        var tree = ViewTree()
        tree.graft(_node, of: store.tree)
        return tree
    }

    private static func _loadSnapshot(_ bytes: UnsafeRawBufferPointer, path: String?, owner: AnyObject?, factory: ViewFactory) throws(SnapshotError) -> View {
        // The maker of each type id the tree's nodes get.
        var makers: [TypeID: (type: View.Type, make: () -> View)] = [:]
        let tree = try ViewTree(snapshot: bytes, path: path, owner: owner, oneRoot: true) { (name, _, offset) throws(SnapshotError) in
            let maker: (type: View.Type, make: () -> View)
            if let known = factory.makers[name] {
                maker = known
            } else if factory.plainViewsForUnknownTypes {
                // The factory's own maker of plain views, if it was given one.
                maker = factory.makers[String(describing: View.self)] ?? (View.self, { View() })
            } else {
                throw SnapshotError(path: path, offset: offset, reason: "type \"\(name)\" has no view class in the ViewFactory: register one (ViewFactory.register(_:make:)), or set plainViewsForUnknownTypes")
            }
            let id = TypeRegistry.shared.typeID(for: maker.type)
            makers[id] = maker
            return id
        }
        return ViewStore.adopting(tree, makers: makers)
    }
}

extension ViewStore {
    /// A store for `tree` (one root), with a view made for each node by the maker of its
    /// type: the root is returned, the others are retained by the store.
    static func adopting(_ tree: ViewTree, makers: [TypeID: (type: View.Type, make: () -> View)]) -> View {
        // The makers in a table by type id, read once per node.
        var table: [(type: View.Type, make: () -> View)?] = []
        for (id, maker) in makers {
            let i = Int(id.rawValue)
            if i >= table.count { table.append(contentsOf: repeatElement(nil, count: i + 1 - table.count)) }
            table[i] = maker
        }
        let store = ViewStore()
        store.tree = tree
        store.views = Array(repeating: nil, count: tree.slotCount)
        var root: View?
        for slot in 0 ..< tree.slotCount {
            guard let node = tree.node(atSlot: slot) else { continue }
            let type = Int(tree.typeID(of: node).rawValue)
            guard type < table.count, let maker = table[type] else { preconditionFailure("no maker for the type of slot \(slot)") }
            let view = maker.make()
            precondition(Swift.type(of: view) == maker.type, "ViewFactory: the maker registered for \(maker.type) made a \(Swift.type(of: view))")
            precondition(view._store == nil, "ViewFactory: the maker of \(Swift.type(of: view)) made a view that already has a superview or subviews")
            if let extras = view._extras, !extras.geometryIsZero {
                // The node's geometry replaces what the maker set.
                view._updateExtras {
                    $0.frameOrigin = .zero
                    $0.frameSize = .zero
                    $0.boundsOrigin = .zero
                }
            }
            store.bind(view, to: node)
            if tree.parent(of: node) == nil { root = view }
        }
        guard let root else { preconditionFailure("a loaded view tree has no root") }
        return root
    }
}

extension View {
    /// The bytes of this view's tree's columns that are mappings of their own (see
    /// `ViewTree._mappedColumnBytes`), 0 for a view alone; for reports.
    ///
    /// - Complexity: O(1)
    package var _mappedColumnBytes: Int { _store?.tree._mappedColumnBytes ?? 0 }
}
