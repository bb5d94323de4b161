extension ViewTree {
    /// Whether `a` and `b` are distinct children of the same parent (direct siblings only).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func isSibling(_ a: NodeID, of b: NodeID) -> Bool {
        _storage.isSibling(a, of: b)
    }

    /// The children of `node`, in order.
    ///
    /// - Complexity: O(1) to make; each step O(1).
    public func children(of node: NodeID) -> Siblings {
        let s = _storage
        s.check(node)
        return Siblings(storage: s, first: s.firstChild(node.index), skipping: _TreeStorage.none)
    }

    /// The siblings of `node` (its parent's children without `node`), in order; empty for a root.
    ///
    /// - Complexity: O(1) to make; each step O(1).
    public func siblings(of node: NodeID) -> Siblings {
        let s = _storage
        s.check(node)
        let p = s.parent[Int(node.index)]
        let first = p == _TreeStorage.none ? _TreeStorage.none : s.firstChild(p)
        return Siblings(storage: s, first: first, skipping: node.index)
    }

    /// The number of children of `node`.
    ///
    /// - Complexity: O(number of children)
    public func childCount(of node: NodeID) -> Int {
        var count = 0
        for _ in children(of: node) { count += 1 }
        return count
    }

    /// The child of `node` at position `index`. Traps if `index` is out of range.
    ///
    /// - Complexity: O(index)
    public func child(of node: NodeID, at index: Int) -> NodeID {
        precondition(index >= 0, "child index \(index) out of range")
        var k = 0
        for child in children(of: node) {
            if k == index { return child }
            k += 1
        }
        preconditionFailure("child index \(index) out of range (\(k) children)")
    }

    /// Nodes with the same parent, in order: the children of a node (``children(of:)``), or
    /// a node's siblings, the one node left out (``siblings(of:)``).
    public struct Siblings: Sequence, Sendable {
        let storage: _TreeStorage
        let first: Int32
        let skipping: Int32

        /// The iterator of the run.
        public struct Iterator: IteratorProtocol, Sendable {
            let storage: _TreeStorage
            var current: Int32
            let skipping: Int32

            /// The next child, or `nil` after the last.
            ///
            /// - Complexity: O(1)
            public mutating func next() -> NodeID? {
                guard current != _TreeStorage.none else { return nil }
                if current == skipping {
                    current = storage.nextSibling(current)
                    guard current != _TreeStorage.none else { return nil }
                }
                defer { current = storage.nextSibling(current) }
                return storage.nodeID(current)
            }
        }

        /// Starts the run.
        ///
        /// - Complexity: O(1)
        public func makeIterator() -> Iterator { Iterator(storage: storage, current: first, skipping: skipping) }
    }

    // MARK: Search

    /// The first sibling of `node` in child order that `matches`; `nil` for a root.
    ///
    /// - Complexity: O(siblings visited) calls of `matches`.
    @inlinable
    public func firstSibling(of node: NodeID, where matches: (NodeID) throws -> Bool) rethrows -> NodeID? {
        for sibling in siblings(of: node) where try matches(sibling) { return sibling }
        return nil
    }

    /// The first sibling of `node` in child order whose type is one of `types` (exactly).
    ///
    /// - Complexity: O(siblings visited + types.count)
    public func firstSibling(of node: NodeID, withTypes types: [TypeID]) -> NodeID? {
        _firstSibling(of: node, matching: _TypeKeys(types: types))
    }

    /// ``firstSibling(of:withTypes:)`` with the keys made already (the facade keeps them).
    package func _firstSibling<Key>(of node: NodeID, matching match: _TypeKeys<Key>) -> NodeID? {
        let s = _storage
        return firstSibling(of: node) { match.slot(of: s.typeID[Int($0.index)]) != nil }
    }

    /// The first sibling of `node` in child order whose tag is one of `tags`.
    ///
    /// - Complexity: O(siblings visited × min(tags.count, 8) + tags.count)
    public func firstSibling(of node: NodeID, withTags tags: [Int]) -> NodeID? {
        let s = _storage
        if tags.count <= 8 {
            return firstSibling(of: node) { tags.contains(s.tag(at: $0.index)) }
        }
        let match = _TagKeys(tags)
        return firstSibling(of: node) { match.slot(ofTagAt: $0.index, in: s) != nil }
    }

    // MARK: Group

    /// Groups the siblings of `node` by the key `key` gives each; `nil` leaves one out.
    /// Each group is in child order; a root has no siblings.
    ///
    /// - Complexity: O(number of siblings) calls of `key`.
    @inlinable
    public func groupSiblings<Key: Hashable>(of node: NodeID, by key: (NodeID) throws -> Key?) rethrows -> [Key: [NodeID]] {
        var groups: [Key: [NodeID]] = [:]
        for sibling in siblings(of: node) {
            if let k = try key(sibling) { groups[k, default: []].append(sibling) }
        }
        return groups
    }

    /// Groups the siblings of `node` whose type is one of `types` (exactly), keyed by type, in child order.
    ///
    /// - Complexity: O(number of siblings + types.count)
    @inlinable
    public func groupSiblings(of node: NodeID, byTypes types: [TypeID]) -> [TypeID: [NodeID]] {
        groupSiblings(of: node, keyingTypes: Dictionary(types.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Groups the siblings of `node` whose type is a key of `typeKeys`, under that key's value, in child order.
    ///
    /// - Complexity: O(number of siblings + typeKeys.count)
    @inlinable
    public func groupSiblings<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        _siblingSlots(of: node, keyingTypes: typeKeys).keyed(_storage.nodeID)
    }

    /// Groups the siblings of `node` whose tag is one of `tags`, keyed by tag, in child order.
    ///
    /// - Complexity: O(number of siblings + tags.count)
    public func groupSiblings(of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        _siblingSlots(of: node, byTags: tags).keyed(_storage.nodeID)
    }

    /// ``groupSiblings(of:keyingTypes:)`` as slots, for each layer to make its elements from.
    @inlinable
    package func _siblingSlots<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> _SlotGroups<Key> {
        _siblingSlots(of: node, matching: _TypeKeys(typeKeys))
    }

    /// ``_siblingSlots(of:keyingTypes:)`` with the keys made already (the facade keeps them).
    @inlinable
    package func _siblingSlots<Key: Hashable>(of node: NodeID, matching match: _TypeKeys<Key>) -> _SlotGroups<Key> {
        let s = _storage
        s.check(node)
        return _memberSlots(ofParent: s.parent[Int(node.index)], skipping: node.index, matching: match)
    }

    /// The slots of the children of slot `p` (none for ``_TreeStorage/none``) but
    /// `skipping`, grouped by the keys of their types, in child order: a node's siblings
    /// (its parent's children but itself) or its children (skipping nothing).
    @inlinable
    package func _memberSlots<Key: Hashable>(ofParent p: Int32, skipping: Int32, matching match: _TypeKeys<Key>) -> _SlotGroups<Key> {
        let s = _storage
        var result = _SlotGroups(keys: match.keys)
        guard !match.keys.isEmpty, p != _TreeStorage.none else { return result }
        s.forEachChild(of: p) { c, slot in
            if c != skipping, let k = match.slot(of: s.tour.type[slot]) { result.append(c, to: k) }
        }
        return result
    }

    /// ``_memberSlots(ofParent:skipping:matching:)`` by tags.
    package func _memberSlots(ofParent p: Int32, skipping: Int32, byTags tags: [Int]) -> _SlotGroups<Int> {
        let match = _TagKeys(tags)
        let s = _storage
        var result = _SlotGroups(keys: match.keys)
        guard !match.keys.isEmpty, p != _TreeStorage.none else { return result }
        s.forEachChild(of: p) { c, slot in
            if c != skipping, let k = match.slot(ofNarrow: s.tour.tag[slot], at: c, in: s) { result.append(c, to: k) }
        }
        return result
    }

    /// Groups the siblings of `node` whose type name is one of `names` (every class or bare
    /// name registered with that name), keyed by name, in child order.
    ///
    /// - Complexity: O(number of siblings + names.count)
    public func groupSiblings(of node: NodeID, byTypeNames names: [String]) -> [String: [NodeID]] {
        groupSiblings(of: node, keyingTypes: Self._typeKeys(named: names))
    }

    /// The first sibling of `node` in child order whose type name is one of `names`.
    ///
    /// - Complexity: O(siblings visited + names.count)
    public func firstSibling(of node: NodeID, withTypeNames names: [String]) -> NodeID? {
        _firstSibling(of: node, matching: _TypeKeys(Self._typeKeys(named: names)))
    }

    /// ``groupSiblings(of:byTags:)`` as slots, for each layer to make its elements from.
    package func _siblingSlots(of node: NodeID, byTags tags: [Int]) -> _SlotGroups<Int> {
        let s = _storage
        s.check(node)
        return _memberSlots(ofParent: s.parent[Int(node.index)], skipping: node.index, byTags: tags)
    }

    /// Calls `body` with the slot of each sibling of `node` in child order and the copies
    /// of its narrow tag and type that its enter token in the index carries; nothing for a
    /// root. The walk reads the index as it was when it started.
    ///
    /// Always inlined (with ``_TreeStorage/forEachChild(of:_:)``), so that `body` is inlined
    /// into the walk: called out of line, it retained and released what it captures for
    /// every sibling (grouping siblings by tags ran 35% fewer instructions once inlined).
    @inlinable @inline(__always)
    package func _forEachSibling(
        of node: NodeID, _ body: (_ sibling: Int32, _ narrowTag: Int32, _ type: Int32) throws -> Void
    ) rethrows {
        let s = _storage
        s.check(node)
        let p = s.parent[Int(node.index)]
        guard p != _TreeStorage.none else { return }
        try s.forEachChild(of: p) { c, slot in
            if c != node.index { try body(c, s.tour.tag[slot], s.tour.type[slot]) }
        }
    }
}

extension _TreeStorage {
    /// ``ViewTree/isSibling(_:of:)`` on this storage (the facade's `_Unowned.isSibling(ofLive:_:)` makes the same comparison without the checks).
    @inlinable @inline(__always)
    func isSibling(_ a: NodeID, of b: NodeID) -> Bool {
        check(a)
        check(b)
        let p = parent[Int(a.index)]
        return a != b && p != _TreeStorage.none && p == parent[Int(b.index)]
    }
}

extension _TreeStorage {
    /// Calls `body` with each child of node `p` in order and the index slot of its enter
    /// token (where its tag and type copies are): from one child's exit token to the next
    /// child's enter token. A child whose exit token is in the same block (a leaf, or any
    /// small subtree) is stepped over by scanning that block, which is already in cache;
    /// only a child whose run leaves the block costs a read of its position.
    ///
    /// A method of the storage, reading the index's arrays in place: a method of the index
    /// would be called on a copy of it, whose making and dropping retain and release each of
    /// its arrays, which cost more than a walk over a few children.
    @inlinable @inline(__always)
    func forEachChild(of p: Int32, _ body: (_ child: Int32, _ slot: Int) throws -> Void) rethrows {
        typealias T = _TourBlocks
        // A position is its slot's index (block << offsetBits | offset).
        var exit = tour.span[Int(p)].enter
        while true {
            // Never past the tour's end: `p`'s exit token comes first.
            let b = T.block(exit)
            let i = T.offset(exit) + 1 < Int(tour.count[b]) ? T.slot(exit) + 1 : Int(tour.next[b]) &* T.capacity
            let t = tour.token[i]
            if t < 0 { return }
            try body(t, i)
            let end = T.block(UInt32(i)) &* T.capacity &+ Int(tour.count[T.block(UInt32(i))])
            var j = i + 1
            while j < end && tour.token[j] != ~t { j += 1 }
            exit = j < end ? UInt32(j) : tour.span[Int(t)].exit
        }
    }
}

extension ViewTree.Siblings: Collection {
    /// A place in the run: the node there and how many come before it; ``endIndex`` is
    /// after the last.
    public struct Index: Comparable, Sendable {
        let ordinal: Int
        let slot: Int32

        /// Whether both are the end, or the same place.
        ///
        /// - Complexity: O(1)
        public static func == (a: Index, b: Index) -> Bool {
            a.slot == _TreeStorage.none || b.slot == _TreeStorage.none ? a.slot == b.slot : a.ordinal == b.ordinal
        }

        /// Whether `a` comes before `b` in the run (the end after every node).
        ///
        /// - Complexity: O(1)
        public static func < (a: Index, b: Index) -> Bool {
            if a.slot == _TreeStorage.none { return false }
            return b.slot == _TreeStorage.none || a.ordinal < b.ordinal
        }
    }

    /// The first node's place.
    ///
    /// - Complexity: O(1)
    public var startIndex: Index { Index(ordinal: 0, slot: skip(first)) }

    /// The place after the last node.
    ///
    /// - Complexity: O(1)
    public var endIndex: Index { Index(ordinal: 0, slot: _TreeStorage.none) }

    /// The place after `i`.
    ///
    /// - Complexity: O(1)
    public func index(after i: Index) -> Index {
        precondition(i.slot != _TreeStorage.none, "cannot advance past the end of the children")
        return Index(ordinal: i.ordinal + 1, slot: skip(storage.nextSibling(i.slot)))
    }

    /// The node at `i`.
    ///
    /// - Complexity: O(1)
    public subscript(i: Index) -> NodeID {
        precondition(i.slot != _TreeStorage.none, "the end index has no node")
        return storage.nodeID(i.slot)
    }

    /// Whether the run has no node.
    ///
    /// - Complexity: O(1)
    public var isEmpty: Bool { skip(first) == _TreeStorage.none }

    /// `slot`, or the node after it when it is the node left out.
    private func skip(_ slot: Int32) -> Int32 {
        slot != _TreeStorage.none && slot == skipping ? storage.nextSibling(slot) : slot
    }
}
