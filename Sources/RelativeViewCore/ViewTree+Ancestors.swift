extension ViewTree {
    /// Whether `a` is a proper ancestor of `b` (a node is never its own relative ancestor).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func isAncestor(_ a: NodeID, of b: NodeID) -> Bool {
        _storage.isAncestor(a, of: b)
    }

    /// The ancestors of `node`, nearest (its parent) first.
    ///
    /// - Complexity: O(1) to make; each step O(1).
    public func ancestors(of node: NodeID) -> Ancestors {
        _storage.check(node)
        return Ancestors(tree: self, start: node.index)
    }

    /// The ancestors of a node, nearest first: a lazy walk up the parent links.
    public struct Ancestors: Sequence, Sendable {
        @usableFromInline let tree: ViewTree
        @usableFromInline let start: Int32

        @inlinable init(tree: ViewTree, start: Int32) {
            self.tree = tree
            self.start = start
        }

        /// The iterator of the walk.
        public struct Iterator: IteratorProtocol, Sendable {
            @usableFromInline let storage: _TreeStorage
            @usableFromInline var current: Int32

            @inlinable init(storage: _TreeStorage, current: Int32) {
                self.storage = storage
                self.current = current
            }

            /// The next ancestor, or `nil` past the root.
            ///
            /// - Complexity: O(1)
            @inlinable
            public mutating func next() -> NodeID? {
                let p = storage.parent[Int(current)]
                guard p != _TreeStorage.none else { return nil }
                current = p
                return storage.nodeID(p)
            }
        }

        /// Starts the walk.
        ///
        /// - Complexity: O(1)
        @inlinable
        public func makeIterator() -> Iterator { Iterator(storage: tree._storage, current: start) }
    }

    /// The number of ancestors of `node` (0 for a root).
    ///
    /// - Complexity: O(depth)
    public func depth(of node: NodeID) -> Int {
        var depth = 0
        for _ in ancestors(of: node) { depth += 1 }
        return depth
    }

    /// The root of the tree that holds `node` (`node` itself for a root).
    ///
    /// - Complexity: O(depth)
    public func root(of node: NodeID) -> NodeID {
        var root = node
        for ancestor in ancestors(of: node) { root = ancestor }
        return root
    }

    /// The deepest node that is `a` or an ancestor of `a` and also `b` or an ancestor of `b`;
    /// `nil` when they are in different trees of the forest.
    ///
    /// - Complexity: O(depth(a) - depth(lca)).
    public func lowestCommonAncestor(_ a: NodeID, _ b: NodeID) -> NodeID? {
        let s = _storage
        s.check(a)
        s.check(b)
        if a == b { return a }
        var x = a.index
        while x != _TreeStorage.none {
            if x == b.index || s.tour.isProperAncestor(x, b.index) { return s.nodeID(x) }
            x = s.parent[Int(x)]
        }
        return nil
    }

    // MARK: Find

    /// The nearest ancestor of `node` for which `matches` is true.
    ///
    /// - Complexity: O(depth) calls of `matches`.
    @inlinable
    public func firstAncestor(of node: NodeID, where matches: (NodeID) throws -> Bool) rethrows -> NodeID? {
        for ancestor in ancestors(of: node) where try matches(ancestor) { return ancestor }
        return nil
    }

    /// The nearest ancestor of `node` whose type is one of `types` (exactly).
    ///
    /// - Complexity: O(depth + types.count)
    public func firstAncestor(of node: NodeID, withTypes types: [TypeID]) -> NodeID? {
        _firstAncestor(of: node, matching: _TypeKeys(types: types))
    }

    /// The nearest ancestor of `node` whose type has a key in `match` (the facade keeps the
    /// keys of its last list of classes).
    package func _firstAncestor<Key>(of node: NodeID, matching match: _TypeKeys<Key>) -> NodeID? {
        let s = _storage
        return firstAncestor(of: node) { match.slot(of: s.typeID[Int($0.index)]) != nil }
    }

    /// The nearest ancestor of `node` whose tag is one of `tags`.
    ///
    /// - Complexity: O(depth × min(tags.count, 8) + tags.count)
    public func firstAncestor(of node: NodeID, withTags tags: [Int]) -> NodeID? {
        let s = _storage
        // A short list is searched as it is: setting up slots would allocate more than the
        // walk costs. A long one gets its lookup table.
        if tags.count <= 8 {
            return firstAncestor(of: node) { tags.contains(s.tag(at: $0.index)) }
        }
        let match = _TagKeys(tags)
        return firstAncestor(of: node) { match.slot(ofTagAt: $0.index, in: s) != nil }
    }

    // MARK: Group

    /// Groups the ancestors of `node` by the key `key` gives each; `nil` leaves one out.
    /// Each group lists its ancestors nearest first.
    ///
    /// - Complexity: O(depth) calls of `key`.
    @inlinable
    public func groupAncestors<Key: Hashable>(of node: NodeID, by key: (NodeID) throws -> Key?) rethrows -> [Key: [NodeID]] {
        var groups: [Key: [NodeID]] = [:]
        for ancestor in ancestors(of: node) {
            if let k = try key(ancestor) { groups[k, default: []].append(ancestor) }
        }
        return groups
    }

    /// Groups the ancestors of `node` whose type is one of `types` (exactly), keyed by type, nearest first.
    ///
    /// - Complexity: O(depth + types.count)
    @inlinable
    public func groupAncestors(of node: NodeID, byTypes types: [TypeID]) -> [TypeID: [NodeID]] {
        groupAncestors(of: node, keyingTypes: Dictionary(types.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Groups the ancestors of `node` whose type is a key of `typeKeys`, under that key's value, nearest first.
    ///
    /// Several types may share a key (the relative-view API keys classes by their names).
    /// - Complexity: O(depth + typeKeys.count)
    @inlinable
    public func groupAncestors<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        _ancestorSlots(of: node, keyingTypes: typeKeys).keyed(_storage.nodeID)
    }

    /// Groups the ancestors of `node` whose type name is one of `names` (every class or bare
    /// name registered with that name), keyed by name, each nearest first.
    ///
    /// - Complexity: O(depth + names.count)
    public func groupAncestors(of node: NodeID, byTypeNames names: [String]) -> [String: [NodeID]] {
        groupAncestors(of: node, keyingTypes: Self._typeKeys(named: names))
    }

    /// The nearest ancestor of `node` whose type name is one of `names`.
    ///
    /// - Complexity: O(depth + names.count)
    public func firstAncestor(of node: NodeID, withTypeNames names: [String]) -> NodeID? {
        _firstAncestor(of: node, matching: _TypeKeys(Self._typeKeys(named: names)))
    }

    /// Groups the ancestors of `node` whose tag is one of `tags`, keyed by tag, nearest first.
    ///
    /// - Complexity: O(depth + tags.count)
    public func groupAncestors(of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        _ancestorSlots(of: node, byTags: tags).keyed(_storage.nodeID)
    }

    /// ``groupAncestors(of:keyingTypes:)`` as slots, for each layer to make its elements from.
    @inlinable
    package func _ancestorSlots<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> _SlotGroups<Key> {
        _ancestorSlots(of: node, matching: _TypeKeys(typeKeys))
    }

    /// ``_ancestorSlots(of:keyingTypes:)`` with the keys made already (the facade keeps them).
    @inlinable
    package func _ancestorSlots<Key: Hashable>(of node: NodeID, matching match: _TypeKeys<Key>) -> _SlotGroups<Key> {
        let s = _storage
        var result = _SlotGroups(keys: match.keys)
        _forEachAncestor(of: node) { a in
            if let k = match.slot(of: s.typeID[Int(a)]) { result.append(a, to: k) }
        }
        return result
    }

    /// ``groupAncestors(of:byTags:)`` as slots, for each layer to make its elements from.
    package func _ancestorSlots(of node: NodeID, byTags tags: [Int]) -> _SlotGroups<Int> {
        let match = _TagKeys(tags)
        let s = _storage
        var result = _SlotGroups(keys: match.keys)
        _forEachAncestor(of: node) { a in
            if let k = match.slot(ofTagAt: a, in: s) { result.append(a, to: k) }
        }
        return result
    }

    /// Calls `body` with the slot of each ancestor of `node`, nearest first: a walk up the
    /// parent column as it was when the walk started.
    @inlinable
    package func _forEachAncestor(of node: NodeID, _ body: (Int32) throws -> Void) rethrows {
        let s = _storage
        s.check(node)
        var x = s.parent[Int(node.index)]
        while x != _TreeStorage.none {
            try body(x)
            x = s.parent[Int(x)]
        }
    }
}

extension _TreeStorage {
    /// ``ViewTree/isAncestor(_:of:)`` on this storage: the one body shared by `ViewTree` and
    /// ``ViewTree/_Unowned``.
    @inlinable @inline(__always)
    func isAncestor(_ a: NodeID, of b: NodeID) -> Bool {
        check(a)
        check(b)
        return tour.isProperAncestor(a.index, b.index)
    }
}
