import RelativeViewEngine
extension ViewTree {
    /// Whether `a` and `b` are distinct children of the same parent (direct siblings only).
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func isSibling(_ a: NodeID, of b: NodeID) -> Bool {
        _storage.isSibling(a, of: b)
    }

    /// Whether `a` is a child of `b` (`b` is its parent).
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func isChild(_ a: NodeID, of b: NodeID) -> Bool {
        _storage.check(b)
        return parent(of: a) == b
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
        /// The first node of the run (before skipping), and the node left out (or none).
        let first, skipping: Int32

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
    /// token (where its tag and type copies are), until `body` returns false: from one
    /// child's exit token to the next child's enter token. A child whose exit token is in
    /// the same block (a leaf, or any small subtree) is stepped over by scanning that block,
    /// which is already in cache; only a child whose run leaves the block costs a read of
    /// its position.
    ///
    /// A method of the storage, reading the index's arrays in place: a method of the index
    /// would be called on a copy of it, whose making and dropping retain and release each of
    /// its arrays, which cost more than a walk over a few children.
    /// - Returns: Whether every child was passed (false: `body` stopped the walk).
    @inlinable @inline(__always)
    func forEachChild(of p: Int32, _ body: (_ child: Int32, _ slot: Int) throws -> Bool) rethrows -> Bool {
        try forEachChild(after: tour.span[Int(p)].enter, body)
    }

    /// ``forEachChild(of:_:)`` from position `start`: the parent's enter token (every
    /// child), or a child's exit token (the children after it).
    @inlinable @inline(__always)
    func forEachChild(after start: UInt32, _ body: (_ child: Int32, _ slot: Int) throws -> Bool) rethrows -> Bool {
        typealias T = _TourBlocks
        // A position is its slot's index (block << offsetBits | offset).
        var exit = start
        while true {
            // Never past the tour's end: the parent's exit token comes first.
            let b = T.block(exit)
            let i = T.offset(exit) + 1 < Int(tour.count[b]) ? T.slot(exit) + 1 : Int(tour.next[b]) &* T.capacity
            let t = tour.token[i]
            if t < 0 { return true }
            guard try body(t, i) else { return false }
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
