import RelativeViewEngine
extension ViewTree {
    /// Whether `a` is a proper ancestor of `b` (a node is never its own relative ancestor).
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func isAncestor(_ a: NodeID, of b: NodeID) -> Bool {
        _storage.isAncestor(a, of: b)
    }

    /// The ancestors of `node`, nearest (its parent) first.
    ///
    /// - Complexity: O(1) to make; each step O(1).
    public func ancestors(of node: NodeID) -> Ancestors {
        _storage.check(node)
        return Ancestors(storage: _storage, current: node.index)
    }

    /// The ancestors of a node, nearest first: a lazy walk up the parent links, its own iterator.
    public struct Ancestors: Sequence, IteratorProtocol, Sendable {
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
