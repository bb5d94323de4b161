extension ViewTree {
    /// Adds a new node with no parent (a root) and returns its id.
    ///
    /// - Parameters:
    ///   - tag: The node's tag.
    ///   - type: The node's type.
    /// - Complexity: O(1) amortized.
    @discardableResult
    public mutating func makeNode(tag: Int = 0, type: TypeID) -> NodeID {
        let i = _newSlot(tag: tag, type: type)
        let s = _storage
        s.tour.insertLeaf(i, tag: s.narrowTag[Int(i)], type: type.rawValue, before: nil)
        return s.nodeID(i)
    }

    /// A new root's slot, in the columns only: the caller puts its tokens in the tour.
    @usableFromInline
    mutating func _newSlot(tag: Int, type: TypeID) -> Int32 {
        let s = _mutableStorage()
        let narrow = _TreeStorage.narrow(tag) ?? _TreeStorage.wideTagSentinel
        let i: Int32
        if s.freeHead != _TreeStorage.none {
            i = s.freeHead
            let n = Int(i)
            s.freeHead = _TreeStorage.nextFree(s.parent[n])
            s.parent[n] = _TreeStorage.none
            s.typeID[n] = type.rawValue
            s.narrowTag[n] = narrow
        } else {
            // The last slot's free mark, free - 1 - slot, must fit in an Int32.
            precondition(s.slotCount < Int(Int32.max) - 1, "a ViewTree holds at most Int32.max - 1 nodes")
            i = Int32(s.slotCount)
            // A generation column that covers every slot goes on covering them; a shorter
            // one (after a streamed build) leaves the new slot at 0 without a write.
            if s.generation.count == s.parent.count { s.generation.append(0) }
            s.parent.append(_TreeStorage.none)
            s.typeID.append(type.rawValue)
            s.narrowTag.append(narrow)
        }
        if narrow == _TreeStorage.wideTagSentinel { s.wideTags[i] = tag }
        s.liveCount += 1
        s.rootCount += 1
        return i
    }

    /// Adds a new node as the last child of `parent` and returns its id.
    ///
    /// - Complexity: O(1) amortized.
    @discardableResult
    public mutating func appendChild(tag: Int = 0, type: TypeID, to parent: NodeID) -> NodeID {
        _storage.check(parent)
        let i = _newSlot(tag: tag, type: type)
        let s = _storage
        _link(i, under: parent.index)
        s.tour.insertLeaf(i, tag: s.narrowTag[Int(i)], type: type.rawValue, before: s.tour.span[Int(parent.index)].exit)
        return s.nodeID(i)
    }

    /// Makes `node` the last child of `parent`, detaching it from its current parent first.
    ///
    /// Traps if `parent` is `node` or one of its descendants.
    /// - Complexity: a subtree move (see ``ViewTree``).
    public mutating func append(_ node: NodeID, to parent: NodeID) {
        _prepareMove(node, under: parent)
        _move(node.index, under: parent.index, before: _TreeStorage.none)
    }

    /// Makes `node` the child of `parent` at position `index` among the children that
    /// remain once `node` is detached (`0` is first, the child count is last).
    ///
    /// Traps if `parent` is `node` or one of its descendants, or if `index` is out of range.
    /// - Complexity: O(index), plus the move of ``append(_:to:)``.
    public mutating func insert(_ node: NodeID, into parent: NodeID, at index: Int) {
        _prepareMove(node, under: parent)
        let s = _storage
        precondition(index >= 0, "child index \(index) out of range")
        // Count the children that remain: `node` itself, if it is one, is skipped.
        var before = s.firstChild(parent.index)
        var k = 0
        while true {
            if before == node.index { before = s.nextSibling(before) }
            if k == index { break }
            precondition(before != _TreeStorage.none, "child index \(index) out of range")
            before = s.nextSibling(before)
            k += 1
        }
        _move(node.index, under: parent.index, before: before)
    }

    /// Moves `node` so that it is the sibling just before `sibling`, under `sibling`'s parent.
    ///
    /// Traps if `sibling` is a root, or would become a descendant of `node`.
    /// - Complexity: as ``append(_:to:)``.
    public mutating func insert(_ node: NodeID, before sibling: NodeID) {
        precondition(node != sibling, "cannot insert a node next to itself")
        guard let parent = self.parent(of: sibling) else { preconditionFailure("\(sibling) is a root: it has no siblings") }
        _prepareMove(node, under: parent)
        _move(node.index, under: parent.index, before: sibling.index)
    }

    /// Moves `node` so that it is the sibling just after `sibling`, under `sibling`'s parent.
    ///
    /// Traps if `sibling` is a root, or would become a descendant of `node`.
    /// - Complexity: as ``append(_:to:)``.
    public mutating func insert(_ node: NodeID, after sibling: NodeID) {
        precondition(node != sibling, "cannot insert a node next to itself")
        guard let parent = self.parent(of: sibling) else { preconditionFailure("\(sibling) is a root: it has no siblings") }
        _prepareMove(node, under: parent)
        var before = _storage.nextSibling(sibling.index)
        if before == node.index { before = _storage.nextSibling(before) }
        _move(node.index, under: parent.index, before: before)
    }

    /// Detaches `node` from its parent; it becomes a root with its whole subtree. No effect on a root.
    ///
    /// - Complexity: a subtree move (see ``ViewTree``): its run moves to the tour's end.
    public mutating func detach(_ node: NodeID) {
        let s = _mutableStorage()
        s.check(node)
        guard s.parent[Int(node.index)] != _TreeStorage.none else { return }
        _unlink(node.index)
        s.tour.moveRun(of: node.index, before: nil)
    }

    /// Removes `node` and its whole subtree; their slots go to the free list and their ids become stale.
    ///
    /// The ids become stale at once, and the nodes leave every query at once. A small
    /// subtree's slots are freed at once too. A large one's run of the index is cut out as
    /// whole blocks, and its slots are freed by the mutations that follow, a few blocks each
    /// (see docs/live-index.md), so that no single call does work in proportion to the
    /// subtree: a slot is reused only once it is freed.
    /// - Complexity: O(B + blocks of the subtree's run), about subtree size / 24; the
    ///   freeing, O(subtree size) in all, is spread over later mutations.
    public mutating func removeSubtree(_ node: NodeID) {
        let s = _mutableStorage()
        s.check(node)
        let x = node.index
        if let nodes = s.tour.cutRun(of: x, unlessWithin: s.tour.blocksRemovedAtOnce) {
            // Out of the tree now, freed later. The top node's parent entry points at
            // itself, so that it is neither a root nor free until then.
            if s.parent[Int(x)] == _TreeStorage.none { s.rootCount -= 1 }
            s.parent[Int(x)] = x
            s.liveCount -= nodes
            return
        }
        _unlink(x)
        // Each node is freed as its enter token goes (freeing touches the columns only).
        s.tour.removeRun(of: x) { _free($0) }
    }

    /// Tokens of removed subtrees (two per node) that each mutation frees, while any wait.
    @usableFromInline static var _reclaimedPerMutation: Int { 256 }

    /// Whether nodes of removed subtrees wait to be freed (see ``removeSubtree(_:)``).
    package var _hasPendingRemovals: Bool { _storage.tour.pendingHead >= 0 }

    /// The tree with every node of a removed subtree freed: itself when none waits, else a
    /// copy (what a scan of every slot, such as a snapshot's, needs). O(1), or O(slots).
    package func _settled() -> ViewTree {
        guard _hasPendingRemovals else { return self }
        var copy = self
        copy._makeStorageUniqueAndOwned()
        copy._reclaimPending(tokens: .max)
        return copy
    }

    /// Frees about `tokens` tokens' worth of the nodes of removed subtrees that wait to be
    /// freed (all of them with `.max`). O(tokens + B).
    @usableFromInline
    func _reclaimPending(tokens: Int) {
        _storage.tour.reclaim(tokens: tokens) { _free($0, counted: false) }
    }

    /// Removes the root `root` alone: its children become roots, each with its subtree, in
    /// child order. Traps if `root` has a parent.
    ///
    /// Their runs of the index stay in place, so this costs O(children + B) however large the
    /// subtrees are (detaching each child would move its whole run).
    /// - Complexity: O(number of children + B) amortized (see ``ViewTree``).
    public mutating func removeRootKeepingChildren(_ root: NodeID) {
        let s = _mutableStorage()
        s.check(root)
        let r = root.index
        precondition(s.parent[Int(r)] == _TreeStorage.none, "\(root) has a parent: only a root can be removed keeping its children")
        // The children become roots where they are in the tour.
        var c = s.firstChild(r)
        while c != _TreeStorage.none {
            let next = s.nextSibling(c)
            s.parent[Int(c)] = _TreeStorage.none
            s.rootCount += 1
            c = next
        }
        s.tour.removeTokens(of: r)
        _free(r)
    }

    /// Makes `node` its parent's first child (UIKit's `sendSubviewToBack`: drawn first, under
    /// its siblings). No effect on a root.
    ///
    /// - Complexity: a subtree move (see ``ViewTree``).
    public mutating func makeFirstChild(_ node: NodeID) {
        guard let parent = parent(of: node) else { return }
        let s = _mutableStorage()
        let first = s.firstChild(parent.index)
        guard first != node.index else { return }
        _move(node.index, under: parent.index, before: first)
    }

    /// Makes `node` its parent's last child (UIKit's `bringSubviewToFront`: drawn last, on
    /// top of its siblings). No effect on a root.
    ///
    /// - Complexity: a subtree move (see ``ViewTree``).
    public mutating func makeLastChild(_ node: NodeID) {
        guard let parent = parent(of: node) else { return }
        let s = _mutableStorage()
        guard s.nextSibling(node.index) != _TreeStorage.none else { return }
        _move(node.index, under: parent.index, before: _TreeStorage.none)
    }

    /// Exchanges the children of `parent` at positions `i` and `j`.
    ///
    /// Traps if either index is out of range.
    /// - Complexity: O(max(i, j)) plus two subtree moves (see ``ViewTree``).
    public mutating func exchangeChildren(of parent: NodeID, at i: Int, _ j: Int) {
        let a = child(of: parent, at: i)
        let b = child(of: parent, at: j)
        guard a != b else { return }
        let s = _mutableStorage()
        // Remember what follows b, put b before a, then a where b was.
        let afterB = s.nextSibling(b.index)
        _move(b.index, under: parent.index, before: a.index)
        _move(a.index, under: parent.index, before: afterB == a.index ? b.index : afterB)
    }

    // MARK: Internals

    /// Checks a move of `node` under `parent` and makes the storage unique. `node` stays
    /// where it is until ``_move(_:under:before:)``, so that the caller can find the
    /// destination among its siblings as they are.
    @usableFromInline
    mutating func _prepareMove(_ node: NodeID, under parent: NodeID) {
        _storage.check(node)
        _storage.check(parent)
        precondition(
            node != parent && !isAncestor(node, of: parent),
            "cannot add a view as a subview of itself or of its descendants")
        _ = _mutableStorage()
    }

    /// Makes `x` (any live node not above `p`) the child of `p` just before its child
    /// `before` (or last if `before` is none): its parent link, then its run of the tour,
    /// which goes before `before`'s run or before `p`'s exit token.
    @usableFromInline
    func _move(_ x: Int32, under p: Int32, before: Int32) {
        _unlink(x)
        _link(x, under: p)
        _storage.tour.moveRun(of: x, before: before != _TreeStorage.none ? before : ~p)
    }

    /// Gives the root `x` the parent `p`, in the columns (the caller puts it in the tour).
    @usableFromInline
    func _link(_ x: Int32, under p: Int32) {
        let s = _storage
        s.parent[Int(x)] = p
        s.rootCount -= 1
    }

    /// Makes `x` a root in the columns, if it has a parent (the caller moves it in the tour).
    @usableFromInline
    func _unlink(_ x: Int32) {
        let s = _storage
        guard s.parent[Int(x)] != _TreeStorage.none else { return }
        s.parent[Int(x)] = _TreeStorage.none
        s.rootCount += 1
    }

    /// Puts the slot of a node whose tokens are leaving the tour on the free list and bumps
    /// its generation. Touches the columns only, never the tour. A node of a removed
    /// subtree whose slot was waiting (`counted` false) already left the live and root counts.
    func _free(_ x: Int32, counted: Bool = true) {
        let s = _storage
        let n = Int(x)
        if counted && s.parent[n] == _TreeStorage.none { s.rootCount -= 1 }
        s.parent[n] = _TreeStorage.freeMark(next: s.freeHead)
        s.coverGeneration(of: n)
        s.generation[n] &+= 1
        if s.narrowTag[n] == _TreeStorage.wideTagSentinel { s.wideTags[x] = nil }
        s.narrowTag[n] = 0
        if n < s.frameOrigin.count { s._clearGeometry(at: n) }
        for a in s.attributes.indices where n < s.attributes[a].startCount { s.attributes[a].clear(at: n) }
        s.content.clear(at: n)
        s.freeHead = x
        if counted { s.liveCount -= 1 }
    }
}
