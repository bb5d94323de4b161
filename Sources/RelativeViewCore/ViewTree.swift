import RelativeViewEngine
/// A forest of view nodes stored as struct-of-arrays columns with a live Euler-tour index.
///
/// `ViewTree` is a value type with copy-on-write storage. The index is the forest's Euler
/// tour (an enter and an exit token per node) kept in blocks of 64 slots with order labels,
/// and every mutation keeps it up to date: there is no stale state, no rebuild, and an
/// ancestor or descendant test is O(1) at every moment. A subtree is a run of the tour, so
/// grouping scans contiguous blocks. Costs (B = 64, n nodes):
///
/// | operation | amortized | worst case |
/// | --- | --- | --- |
/// | `isAncestor`, `isDescendant` | O(1) | O(1) |
/// | add, insert or remove a leaf; move a leaf | O(B + log n) | O(B + n/B) |
/// | move a subtree whose run lies in one block (≤ 32 nodes) | O(B + log n) | O(B + n/B) |
/// | move a longer subtree of s nodes (its inner blocks are relinked, not copied) | O(B + s/B + log n) | O(B + s/B + n/B) |
/// | remove a subtree of s nodes (its slots are freed by later mutations, about 128 each) | O(B + s/B) | O(B + s/B + n/B) |
/// | `exchangeChildren`, `makeFirstChild`, `makeLastChild` | as two (one) subtree moves, plus the child walk | |
/// | group the descendants by tags or types | O(subtree) contiguous reads | |
///
/// The worst case is a relabeling of every block's order label: one write per block (a
/// block holds up to 64 tokens; the upkeep keeps a changed tree near 48). First and last
/// child, next and previous sibling are O(1) reads of the tour (there are no link columns).
/// No mutation copies a column or walks a large subtree: columns of 128 KiB or more grow in
/// place (see the article "The live index"), a large removal frees its slots over the
/// mutations after it, and every mutation ends with a bounded upkeep that keeps the index's
/// blocks in tour order in memory and packed, so nothing needs ``compactIndex()``.
///
/// A finished tree is `Sendable` and can be queried from several threads at once: queries
/// only read.
///
/// Semantics follow the relative-view library: a node is never its own (relative)
/// ancestor, descendant or sibling; ancestors are listed nearest first, descendants in
/// depth-first pre-order, siblings in child order.
public struct ViewTree: Sendable {
    @usableFromInline package var _storage: _TreeStorage

    /// An empty tree.
    ///
    /// - Complexity: O(1)
    public init() {
        _storage = _TreeStorage(minimumCapacity: 0)
    }

    /// An empty tree with room for `minimumCapacity` nodes before its columns grow.
    ///
    /// - Complexity: O(minimumCapacity)
    public init(minimumCapacity: Int) {
        _storage = _TreeStorage(minimumCapacity: minimumCapacity)
    }

    /// Makes room for `nodes` nodes in all (live ones and slots freed for reuse) before the
    /// columns or the index grow.
    ///
    /// A tree's small columns grow as arrays do, doubling; from 128 KiB on they grow in
    /// place by a sixteenth, with no copy (see the article "The live index"), so no
    /// mutation needs this to stay within a frame budget. Reserving ahead still saves the
    /// growth steps. The index's blocks are reserved at the tour's present fill.
    ///
    /// - Complexity: O(n) when it moves small columns, else O(1) system calls.
    public mutating func reserveCapacity(_ nodes: Int) {
        // The shape does not change: the version stays.
        _makeStorageUniqueAndOwned()
        let s = _storage
        s.reserveCapacity(nodes)
    }

    /// Lays the index out in tour order: afterwards a scan of any subtree (grouping its
    /// descendants) reads memory from start to end, as on a tree from ``ViewTreeBuilder``.
    ///
    /// Mutations put new index blocks wherever there is room, and every mutation's upkeep
    /// brings them back into tour order a little at a time (see docs/live-index.md); this
    /// does it all at once. Afterwards the blocks are three quarters full and in order.
    /// It is never needed; call it, if at all, after a bulk build by mutations, not within
    /// a frame budget: it is one O(n) pass. Queries give the same answers before and after;
    /// node ids stay valid.
    ///
    /// The node columns give back their spare capacity too (a tree grown by appends keeps
    /// up to half of a small column spare, a sixteenth of a large one): the next append
    /// after this one grows them again.
    ///
    /// - Complexity: O(n)
    public mutating func compactIndex() {
        let s = _mutableStorage()
        _reclaimPending(tokens: .max)
        s.tour.compact()
        s.trimCapacity()
    }

    @usableFromInline
    package init(_storage: _TreeStorage) {
        self._storage = _storage
    }

    /// The number of live nodes.
    ///
    /// - Complexity: O(1)
    @inlinable public var count: Int { _storage.liveCount }

    /// Whether the tree has no nodes.
    ///
    /// - Complexity: O(1)
    @inlinable public var isEmpty: Bool { _storage.liveCount == 0 }

    /// The number of roots: live nodes with no parent (a tree of the forest each).
    ///
    /// - Complexity: O(1)
    @inlinable public var rootCount: Int { _storage.rootCount }

    /// The number of slots in the arena, live or free; ids index below it.
    ///
    /// - Complexity: O(1)
    @inlinable public var slotCount: Int { _storage.slotCount }

    /// Whether `id` names a live node of this tree (a removed node's id does not, nor an id
    /// of another tree).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func contains(_ id: NodeID) -> Bool {
        let s = _storage
        let i = Int(id.index)
        return s.isCurrent(id) && i < s.slotCount && s.isLive(i)
    }

    /// The id of the live node in slot `index`, or `nil` if that slot is free or out of range.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func node(atSlot index: Int) -> NodeID? {
        let s = _storage
        guard index >= 0 && index < s.slotCount && s.isLive(index) else { return nil }
        return s.nodeID(Int32(index))
    }

    // MARK: Node properties

    /// The tag of a node (`Int`, as in UIKit).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func tag(of node: NodeID) -> Int {
        _storage.check(node)
        return _storage.tag(at: node.index)
    }

    /// The type of a node: its id in ``TypeRegistry/shared``.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func typeID(of node: NodeID) -> TypeID {
        _storage.check(node)
        return TypeID(rawValue: _storage.typeID[Int(node.index)])
    }

    /// The name of a node's type: `String(describing:)` of its class, or the bare name it
    /// was registered under (an element's, a JSON value's kind).
    ///
    /// - Complexity: O(1)
    public func typeName(of node: NodeID) -> String {
        TypeRegistry.shared.name(of: typeID(of: node))
    }

    /// The names of the types the tree's nodes have, each once, in the order of each
    /// name's first node in document order (roots in order, each subtree in pre-order).
    ///
    /// - Complexity: O(n)
    public func typeNames() -> [String] {
        var seen = Set<Int32>()
        var names: [String] = []
        func visit(_ node: NodeID) {
            let id = typeID(of: node)
            if seen.insert(id.rawValue).inserted { names.append(TypeRegistry.shared.name(of: id)) }
        }
        for root in roots {
            visit(root)
            for node in descendants(of: root) { visit(node) }
        }
        return names
    }

    /// Sets the tag of a node (and its copy in the index).
    ///
    /// - Complexity: O(1)
    public mutating func setTag(_ tag: Int, of node: NodeID) {
        let s = _mutableStorage()
        s.check(node)
        s.setTag(tag, at: node.index)
    }

    /// Sets the type of a node (and its copy in the index).
    ///
    /// - Complexity: O(1)
    public mutating func setType(_ type: TypeID, of node: NodeID) {
        let s = _mutableStorage()
        s.check(node)
        s.typeID[Int(node.index)] = type.rawValue
        s.tour.setType(type.rawValue, of: node.index)
    }

    // MARK: Links

    /// The parent of a node, or `nil` for a root.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always) public func parent(of node: NodeID) -> NodeID? { _storage.step(from: node) { $0.parent[Int($1)] } }

    /// The first child of a node, or `nil` for a leaf.
    ///
    /// - Complexity: O(1)
    @inlinable public func firstChild(of node: NodeID) -> NodeID? { _storage.step(from: node) { $0.firstChild($1) } }

    /// The last child of a node, or `nil` for a leaf.
    ///
    /// - Complexity: O(1)
    @inlinable public func lastChild(of node: NodeID) -> NodeID? { _storage.step(from: node) { $0.lastChild($1) } }

    /// The next sibling of a node, or `nil` for a last child or a root.
    ///
    /// - Complexity: O(1)
    @inlinable public func nextSibling(of node: NodeID) -> NodeID? { _storage.step(from: node) { $0.nextSibling($1) } }

    /// The previous sibling of a node, or `nil` for a first child or a root.
    ///
    /// - Complexity: O(1)
    @inlinable public func previousSibling(of node: NodeID) -> NodeID? { _storage.step(from: node) { $0.previousSibling($1) } }

    /// The roots of the forest, in slot order.
    ///
    /// - Complexity: O(slotCount)
    public var roots: [NodeID] {
        let s = _storage
        return (0 ..< Int32(s.slotCount)).lazy.filter { s.parent[Int($0)] == _TreeStorage.none }.map(s.nodeID)
    }

    // MARK: Copy on write

    /// The storage, made unique and given a new version: every mutation goes through here.
    @usableFromInline
    mutating func _mutableStorage() -> _TreeStorage {
        _makeStorageUniqueAndOwned()
        _storage.version = _TreeStorage.nextVersion()
        if _slowPath(_storage.tour.pendingHead >= 0) { _reclaimPending(tokens: Self._reclaimedPerMutation) }
        _storage.tour.upkeep()
        return _storage
    }

    /// Copies the storage, into memory of its own, if it is shared with another tree or
    /// borrows memory (a loaded snapshot's): what every change does first.
    ///
    /// - Complexity: O(1), or O(slots) when it copies.
    @usableFromInline @inline(__always)
    mutating func _makeStorageUniqueAndOwned() {
        if _slowPath(!isKnownUniquelyReferenced(&_storage) || _storage.borrowsMemory) {
            _storage = _TreeStorage(copying: _storage)
        }
    }
}

extension ViewTree {
    /// Takes `other`'s identity, so that the ids of `other` are ids of this tree too (see
    /// ``NodeID``): for tests that build one tree two ways (streamed and by appends, saved
    /// and loaded, through an image) and compare them node for node, slot by slot. A tree
    /// that is not node for node the same as `other` would then take `other`'s ids for its
    /// own nodes' wherever slot and generation agree: it is for such tests only.
    ///
    /// - Complexity: O(1), or O(slots) if the storage is shared and must be copied first.
    package mutating func _shareIdentity(with other: ViewTree) {
        if !isKnownUniquelyReferenced(&_storage) { _storage = _TreeStorage(copying: _storage) }
        _storage.identity = other._storage.identity
    }
}
