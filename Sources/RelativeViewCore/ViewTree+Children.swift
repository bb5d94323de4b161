extension ViewTree {
    /// Whether `a` is a child of `b` (`b` is its parent).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func isChild(_ a: NodeID, of b: NodeID) -> Bool {
        _storage.check(b)
        return parent(of: a) == b
    }

    // MARK: Search

    /// The first child of `node` in child order that `matches`.
    ///
    /// - Complexity: O(children visited) calls of `matches`.
    @inlinable
    public func firstChild(of node: NodeID, where matches: (NodeID) throws -> Bool) rethrows -> NodeID? {
        for child in children(of: node) where try matches(child) { return child }
        return nil
    }

    /// The first child of `node` whose tag is one of `tags`.
    ///
    /// - Complexity: O(children visited × min(tags.count, 8) + tags.count)
    public func firstChild(of node: NodeID, withTags tags: [Int]) -> NodeID? {
        let s = _storage
        if tags.count <= 8 {
            return firstChild(of: node) { tags.contains(s.tag(at: $0.index)) }
        }
        let match = _TagKeys(tags)
        return firstChild(of: node) { match.slot(ofTagAt: $0.index, in: s) != nil }
    }

    /// The first child of `node` whose type is one of `types` (exactly).
    ///
    /// - Complexity: O(children visited + types.count)
    public func firstChild(of node: NodeID, withTypes types: [TypeID]) -> NodeID? {
        _firstChild(of: node, matching: _TypeKeys(types: types))
    }

    /// The first child of `node` whose type name is one of `names`.
    ///
    /// - Complexity: O(children visited + names.count)
    public func firstChild(of node: NodeID, withTypeNames names: [String]) -> NodeID? {
        _firstChild(of: node, matching: _TypeKeys(Self._typeKeys(named: names)))
    }

    /// ``firstChild(of:withTypes:)`` with the keys made already (the facade keeps them).
    package func _firstChild<Key>(of node: NodeID, matching match: _TypeKeys<Key>) -> NodeID? {
        let s = _storage
        return firstChild(of: node) { match.slot(of: s.typeID[Int($0.index)]) != nil }
    }

    // MARK: Group

    /// Groups the children of `node` by the key `key` gives each; `nil` leaves one out.
    /// Each group is in child order.
    ///
    /// - Complexity: O(number of children) calls of `key`.
    @inlinable @inline(__always)
    public func groupChildren<Key: Hashable>(of node: NodeID, by key: (NodeID) throws -> Key?) rethrows -> [Key: [NodeID]] {
        var groups: [Key: [NodeID]] = [:]
        for child in children(of: node) {
            if let k = try key(child) { groups[k, default: []].append(child) }
        }
        return groups
    }

    /// Groups the children of `node` whose tag is one of `tags`, keyed by tag, in child order.
    ///
    /// - Complexity: O(number of children + tags.count)
    public func groupChildren(of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        _childSlots(of: node, byTags: tags).keyed(_storage.nodeID)
    }

    /// Groups the children of `node` whose type is one of `types` (exactly), keyed by type,
    /// in child order.
    ///
    /// - Complexity: O(number of children + types.count)
    public func groupChildren(of node: NodeID, byTypes types: [TypeID]) -> [TypeID: [NodeID]] {
        groupChildren(of: node, keyingTypes: Dictionary(types.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Groups the children of `node` whose type is a key of `typeKeys`, under that key's
    /// value, in child order.
    ///
    /// - Complexity: O(number of children + typeKeys.count)
    public func groupChildren<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        _childSlots(of: node, matching: _TypeKeys(typeKeys)).keyed(_storage.nodeID)
    }

    /// Groups the children of `node` whose type name is one of `names`, keyed by name, in
    /// child order.
    ///
    /// - Complexity: O(number of children + names.count)
    public func groupChildren(of node: NodeID, byTypeNames names: [String]) -> [String: [NodeID]] {
        groupChildren(of: node, keyingTypes: Self._typeKeys(named: names))
    }

    /// ``groupChildren(of:keyingTypes:)`` as slots, for each layer to make its elements from.
    package func _childSlots<Key: Hashable>(of node: NodeID, matching match: _TypeKeys<Key>) -> _SlotGroups<Key> {
        _storage.check(node)
        return _memberSlots(ofParent: node.index, skipping: _TreeStorage.none, matching: match)
    }

    /// ``groupChildren(of:byTags:)`` as slots, for each layer to make its elements from.
    package func _childSlots(of node: NodeID, byTags tags: [Int]) -> _SlotGroups<Int> {
        _storage.check(node)
        return _memberSlots(ofParent: node.index, skipping: _TreeStorage.none, byTags: tags)
    }

    /// Calls `body` with the slot of each child of `node` in child order and the copies of
    /// its narrow tag and type that its enter token carries (see ``_forEachSibling(of:_:)``).
    @inlinable @inline(__always)
    package func _forEachChild(
        of node: NodeID, _ body: (_ child: Int32, _ narrowTag: Int32, _ type: Int32) throws -> Void
    ) rethrows {
        let s = _storage
        s.check(node)
        try s.forEachChild(of: node.index) { c, slot in try body(c, s.tour.tag[slot], s.tour.type[slot]) }
    }
}
