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

    /// Renamed ``Siblings``: ``siblings(of:)`` returned a type called `Children`.
    @available(*, deprecated, renamed: "Siblings")
    public typealias Children = Siblings

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
    public func groupSiblings(of node: NodeID, byTypes types: [TypeID]) -> [TypeID: [NodeID]] {
        groupSiblings(of: node, keyingTypes: Dictionary(types.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Groups the siblings of `node` whose type is a key of `typeKeys`, under that key's value, in child order.
    ///
    /// - Complexity: O(number of siblings + typeKeys.count)
    public func groupSiblings<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        let match = _TypeKeys(typeKeys.map { ($0.key, $0.value) })
        let s = _storage
        s.check(node)
        let p = s.parent[Int(node.index)]
        var groups = [[NodeID]](repeating: [], count: match.keys.count)
        if p != _TreeStorage.none && !match.keys.isEmpty {
            // The type copies in the tour, read at each sibling's enter slot.
            s.tour.forEachChild(of: p) { c, slot in
                if c != node.index, let k = match.slot(of: s.tour.type[slot]) { groups[k].append(s.nodeID(c)) }
            }
        }
        return _keyed(groups, match.keys)
    }

    /// Groups the siblings of `node` whose tag is one of `tags`, keyed by tag, in child order.
    ///
    /// - Complexity: O(number of siblings + tags.count)
    public func groupSiblings(of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        let match = _TagKeys(tags)
        let s = _storage
        s.check(node)
        let p = s.parent[Int(node.index)]
        var groups = [[NodeID]](repeating: [], count: match.keys.count)
        if p != _TreeStorage.none && !match.keys.isEmpty {
            // The tag copies in the tour, read at each sibling's enter slot.
            s.tour.forEachChild(of: p) { c, slot in
                if c != node.index, let k = match.slot(ofNarrow: s.tour.tag[slot], at: c, in: s) { groups[k].append(s.nodeID(c)) }
            }
        }
        return _keyed(groups, match.keys)
    }
}

extension _TreeStorage {
    /// ``ViewTree/isSibling(_:of:)`` on this storage, shared by `ViewTree` and ``ViewTree/_Unowned``.
    @inlinable @inline(__always)
    func isSibling(_ a: NodeID, of b: NodeID) -> Bool {
        check(a)
        check(b)
        let p = parent[Int(a.index)]
        return a != b && p != _TreeStorage.none && p == parent[Int(b.index)]
    }
}
