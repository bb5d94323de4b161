import RelativeViewCore

/// The arena behind one connected tree of views: a ``ViewTree`` and the view of each node.
///
/// Ownership follows UIKit: the store holds a strong reference (a manual retain in
/// `views`) to every view that has a superview, and none to the root, which only its
/// users keep alive. Views that share a store are always connected (one store per tree),
/// which keeps Swift's region-based isolation sound: two views that look unrelated to the
/// compiler never share hidden mutable state.
@usableFromInline
final class ViewStore {
    // Views are single-threaded and no access to these overlaps a write, so the dynamic
    // exclusivity checks (which cost more than an O(1) query) are turned off.
    @usableFromInline @exclusivity(unchecked) var tree: ViewTree
    /// The view of each slot; retained exactly when the slot's node has a parent.
    @usableFromInline @exclusivity(unchecked) var views: [Unmanaged<View>?]
    /// The classes of the last grouping by types and their keys (see ``typeKeys(_:)``).
    @exclusivity(unchecked) var keptTypeKeys: (types: [ObjectIdentifier], keys: _TypeKeys<String>)?

    init() {
        tree = ViewTree()
        views = []
    }

    /// The view of a node of this store.
    @inlinable
    func view(_ node: NodeID) -> View { view(slot: node.index) }

    /// The view of the node in `slot`: the store's own slots need no generation check.
    @inlinable
    func view(slot: Int32) -> View {
        guard let view = views[Int(slot)] else {
            preconditionFailure("no view for slot \(slot): the view tree was changed during the query")
        }
        return view.takeUnretainedValue()
    }

    @inlinable
    func views<C: Collection>(_ nodes: C) -> [View] where C.Element == NodeID {
        nodes.map(view)
    }

    /// The views of a grouping by tags or types, made from its slots in one pass.
    @inlinable
    func views<Key>(_ groups: _SlotGroups<Key>) -> [Key: [View]] {
        groups.keyedGroups { slots in
            var views: [View] = []
            views.reserveCapacity(slots.count)
            var start = 0
            while start < slots.count {
                let end = min(start + Self.touchAhead, slots.count)
                touch(slots[start ..< end])
                for i in start ..< end { views.append(view(slot: slots[i])) }
                start = end
            }
            return views
        }
    }

    /// How many views a pass reads before it retains them (see ``touch(_:)``).
    @inlinable static var touchAhead: Int { 32 }

    /// Reads the views of `slots` without retaining them, checking that each is the view of
    /// its slot. On a large tree each view is a cache miss: plain reads of several views
    /// overlap, while a retain (an atomic operation) waits for its view, so a pass that
    /// retains views one by one would wait for each miss in turn.
    @inlinable
    func touch(_ slots: some Sequence<Int32>) {
        for slot in slots {
            guard let view = views[Int(slot)] else {
                preconditionFailure("no view for slot \(slot): the view tree was changed during the query")
            }
            let node = view._withUnsafeGuaranteedRef { $0._node.index }
            precondition(node == slot, "the view of slot \(slot) is bound to slot \(node)")
        }
    }

    /// Gives back the spare capacity of the table of views (see ``View/compactIndex()``).
    func trimCapacity() {
        views._trimCapacity()
    }

    /// Gives every view its node's positions in the index as they stand, with the tree's
    /// version (see `View+Spans.swift`), so that ancestor queries take their fast path from
    /// the first one. For ``View/compactIndex()``, which moves every position anyway: one
    /// pass over the views in slot order, which is about their order in memory when the
    /// tree was built view by view.
    ///
    /// - Complexity: O(slot count)
    func keepSpans() {
        let tree = self.tree._unowned
        let version = tree.version
        for slot in views.indices {
            guard let view = views[slot] else { continue }
            view._withUnsafeGuaranteedRef {
                $0._tagOrSpan = tree.span(ofLiveSlot: slot)
                $0._spanVersion = version
            }
        }
    }

    /// Records `view` as the view of `node`, retained if the node has a parent.
    func bind(_ view: View, to node: NodeID) {
        let slot = Int(node.index)
        if slot >= views.count { views.append(contentsOf: repeatElement(nil, count: slot + 1 - views.count)) }
        views[slot] = tree.parent(of: node) == nil ? Unmanaged.passUnretained(view) : Unmanaged.passRetained(view)
        view._store = self
        view._node = node
        view._spanVersion = 0
    }

    /// A fresh store holding `view` alone, as a root.
    static func adopting(_ view: View) -> ViewStore {
        let store = ViewStore()
        store.adoptLone(view)
        return store
    }

    // MARK: Moving trees between stores

    /// Moves the tree of `root` (a root of `source`) into this store as a new root: O(its size).
    /// Retains are carried over: the root stays unretained, every other view stays retained.
    ///
    /// The views are rebound in batches: each batch's views are read first (plain reads of
    /// several views overlap their cache misses), then each is given its new store, whose
    /// reference count changes (atomic operations, which would wait for each view's miss
    /// in turn). This is what freeing the root of a large tree whose views are referenced
    /// elsewhere costs (see ``releaseRoot(_:)``).
    func absorb(_ root: NodeID, of source: ViewStore) {
        precondition(source !== self)
        var moved: [(old: Int32, new: NodeID)] = []
        tree.graft(root, of: source.tree) { old, new in moved.append((old.index, new)) }
        if views.count < tree.slotCount { views.append(contentsOf: repeatElement(nil, count: tree.slotCount - views.count)) }
        var start = 0
        while start < moved.count {
            let end = min(start + Self.touchAhead, moved.count)
            for (old, _) in moved[start ..< end] {
                guard let view = source.views[Int(old)] else { continue }
                let node = view._withUnsafeGuaranteedRef { $0._node.index }
                precondition(node == old, "the view of slot \(old) is bound to slot \(node)")
            }
            for (old, new) in moved[start ..< end] {
                let view = source.views[Int(old)]
                views[Int(new.index)] = view
                source.views[Int(old)] = nil
                view?._withUnsafeGuaranteedRef {
                    $0._store = self
                    $0._node = new
                    $0._spanVersion = 0
                }
            }
            start = end
        }
        source.tree.removeSubtree(root)
    }

    /// Moves the tree of `root`, a root of this store, out into a store of its own, or back
    /// to the store-less state if it is a single view. Its root must be unretained.
    func split(_ root: NodeID) {
        guard tree.firstChild(of: root) != nil else {
            let view = self.view(root)
            view._loneTag = tree.tag(of: root)
            view._updateExtras {
                $0.frameOrigin = tree.frameOrigin(of: root)
                $0.frameSize = tree.frameSize(of: root)
                $0.boundsOrigin = tree.boundsOrigin(of: root)
            }
            view._store = nil
            views[Int(root.index)] = nil
            tree.removeSubtree(root)
            return
        }
        ViewStore().absorb(root, of: self)
    }

    /// Where a view goes among its new siblings.
    enum Position {
        case last
        case index(Int)
        case before(View)
        case after(View)
    }

    /// Makes `child` a subview of `parent` at `position`, as UIKit's `addSubview` family does:
    /// a child that has a superview is removed from it first; stores merge smaller into larger.
    /// Traps if `parent` is `child` or one of its descendants.
    static func link(_ child: View, under parent: View, at position: Position) {
        if child._store == nil, child !== parent, case .last = position {
            // A new view (the usual build): its node is made in place as the last child,
            // one index insertion, where adopting it as a root and moving it takes two.
            parent._ensureStore().adoptLone(child, under: parent._node)
            return
        }
        if let store = child._store, store === parent._store, store.tree.parent(of: child._node) != nil {
            // A move inside one tree: the store already owns the child.
            store.move(child, under: parent, at: position)
            return
        }
        if child.superview != nil { unlink(child) }  // the caller keeps `child` alive meanwhile
        let parentStore = parent._ensureStore()
        if let childStore = child._store {
            if childStore !== parentStore {
                if childStore.tree.count <= parentStore.tree.count {
                    parentStore.absorb(child._node, of: childStore)
                } else {
                    childStore.absorb(parentStore.tree.root(of: parent._node), of: parentStore)
                }
            }
        } else {
            parentStore.adoptLone(child)
        }
        guard let store = child._store else { preconditionFailure("a linked view has no store") }
        store.move(child, under: parent, at: position)
        // The child had no superview: from now on the store owns it.
        _ = store.views[Int(child._node.index)]?.retain()
    }

    /// Adds a store-less view to this store, with its tag and geometry: as a root, or as
    /// the last child of `parent` (then the store retains it: it has a superview).
    func adoptLone(_ view: View, under parent: NodeID? = nil) {
        let type = TypeRegistry.shared.typeID(for: Swift.type(of: view))
        let node = if let parent { tree.appendChild(tag: view._loneTag, type: type, to: parent) } else { tree.makeNode(tag: view._loneTag, type: type) }
        if let extras = view._extras, !extras.geometryIsZero {
            tree.setFrameOrigin(extras.frameOrigin, of: node)
            tree.setFrameSize(extras.frameSize, of: node)
            tree.setBoundsOrigin(extras.boundsOrigin, of: node)
            view._updateExtras {
                $0.frameOrigin = .zero
                $0.frameSize = .zero
                $0.boundsOrigin = .zero
            }
        }
        bind(view, to: node)
    }

    /// Moves `child` under `parent`, both in this store.
    private func move(_ child: View, under parent: View, at position: Position) {
        switch position {
        case .last: tree.append(child._node, to: parent._node)
        case .index(let i): tree.insert(child._node, into: parent._node, at: i)
        case .before(let sibling): tree.insert(child._node, before: sibling._node)
        case .after(let sibling): tree.insert(child._node, after: sibling._node)
        }
    }

    /// Detaches `child` from its parent. Its tree or the rest, whichever is smaller, moves
    /// to a store of its own; then the store's reference to `child` is released, which
    /// frees it at once if nothing else holds it.
    static func unlink(_ child: View) {
        guard let store = child._store, let parent = store.tree.parent(of: child._node) else { return }
        let rest = store.tree.root(of: parent)
        store.tree.detach(child._node)
        let retained = store.views[Int(child._node.index)]
        let smaller = store.tree.smallerTree(child._node, rest)
        let larger = smaller == child._node ? rest : child._node
        store.split(smaller)
        // A view left with neither superview nor subviews goes back to having no store.
        if store.tree.firstChild(of: larger) == nil { store.split(larger) }
        retained?.release()
    }

    // MARK: Freeing a root

    /// Called from the root's `deinit`: frees the subtree of `root` iteratively. Views that
    /// are referenced elsewhere survive as roots with their subtrees; the others are freed
    /// and their slots recycled. Never recursive, so a million-deep chain frees fine.
    func releaseRoot(_ root: NodeID) {
        // Removing a root keeping its children leaves their runs of the index in place: a
        // chain freed from the top costs O(1) per view, not a move of what hangs below.
        var pending: [NodeID] = Array(tree.children(of: root))
        views[Int(root.index)] = nil
        tree.removeRootKeepingChildren(root)
        var survivors: [View] = []
        while let node = pending.popLast() {
            guard let retained = views[Int(node.index)] else { continue }
            var view = retained.takeRetainedValue()
            if isKnownUniquelyReferenced(&view) {
                // Only we hold it: detach its children for later, then free it. Its deinit
                // finds no store and does nothing, so there is no recursion.
                pending.append(contentsOf: tree.children(of: node))
                views[Int(node.index)] = nil
                tree.removeRootKeepingChildren(node)
                view._store = nil
                view._spanVersion = 0
            } else {
                views[Int(node.index)] = Unmanaged.passUnretained(view)
                survivors.append(view)
            }
        }
        // Each survivor is now a root here; all but one move to stores of their own. A move
        // costs the size of the moved tree, so the largest tree stays (found by walks that
        // cost the smaller tree of each pair, no more than moving it).
        guard !survivors.isEmpty else { return }
        var largest = 0
        for i in survivors.indices.dropFirst()
        where tree.smallerTree(survivors[largest]._node, survivors[i]._node) == survivors[largest]._node {
            largest = i
        }
        for (i, view) in survivors.enumerated() where i != largest { split(view._node) }
        let kept = survivors[largest]._node
        if tree.firstChild(of: kept) == nil { split(kept) }
    }
}

/// The state of ``ViewStore/group(_:of:by:)``: slots are taken in batches, whose views are
/// read (see ``ViewStore/touch(_:)``) before the calls of `groupKey` retain them one by one.
@usableFromInline
struct _Grouping<Key: Hashable> {
    @usableFromInline var groups: [Key: [View]] = [:]
    @usableFromInline let batch: UnsafeMutableBufferPointer<Int32>
    @usableFromInline var count = 0

    @inlinable
    init(batch: UnsafeMutableBufferPointer<Int32>) {
        self.batch = batch
    }

    @inlinable @inline(__always)
    mutating func visit(_ slot: Int32, _ store: ViewStore, _ groupKey: (View) -> Key?) {
        batch[count] = slot
        count += 1
        if count == batch.count { flush(store, groupKey) }
    }

    @inlinable
    mutating func flush(_ store: ViewStore, _ groupKey: (View) -> Key?) {
        let slots = UnsafeMutableBufferPointer(rebasing: batch[..<count])
        store.touch(slots)
        for slot in slots {
            let view = store.view(slot: slot)
            if let key = groupKey(view) { groups[key, default: []].append(view) }
        }
        count = 0
    }
}
