import RelativeViewEngine
extension ViewTree {
    /// Whether `a` is a proper descendant of `b` (a node is never its own relative descendant).
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func isDescendant(_ a: NodeID, of b: NodeID) -> Bool {
        isAncestor(b, of: a)
    }

    /// The number of nodes in the subtree of `node`, `node` included.
    ///
    /// - Complexity: O(blocks of the index the subtree spans): about size / 32.
    public func subtreeSize(of node: NodeID) -> Int {
        let s = _storage
        s.check(node)
        return s.tour.runLength(of: node.index) / 2
    }

    /// The proper descendants of `node` in depth-first pre-order (a node, then its
    /// children's subtrees in child order).
    ///
    /// The walk reads the subtree's run of the index, block by block.
    /// - Complexity: O(1) to make; O(1) amortized per step.
    public func descendants(of node: NodeID) -> Descendants {
        let s = _storage
        s.check(node)
        return Descendants(tree: self, root: node.index)
    }

    /// The proper descendants of a node in depth-first pre-order.
    public struct Descendants: Sequence, Sendable {
        let tree: ViewTree
        let root: Int32

        /// The iterator of the walk.
        public struct Iterator: IteratorProtocol, Sendable {
            let storage: _TreeStorage
            /// The position of the next token to read, and the root's exit token's.
            var position: UInt32
            let end: UInt32

            /// The next descendant in pre-order, or `nil` after the last.
            ///
            /// - Complexity: amortized O(1).
            public mutating func next() -> NodeID? {
                while position != end {
                    let t = storage.tour.token(at: position)
                    // Never past the end of the tour: the root's exit token comes later.
                    position = storage.tour.after(position)!
                    if t >= 0 { return storage.nodeID(t) }
                }
                return nil
            }
        }

        /// Starts the walk.
        ///
        /// - Complexity: O(1)
        public func makeIterator() -> Iterator {
            let s = tree._storage
            let span = s.tour.span[Int(root)]
            // The token after the root's enter token: at worst its exit token.
            return Iterator(storage: s, position: s.tour.after(span.enter)!, end: span.exit)
        }
    }

    /// The node after `from` in the pre-order of the subtree of `root` (`nil` `from`: the first), or `nil` at the end.
    @usableFromInline
    static func _preorderStep(_ s: _TreeStorage, root: Int32, from: Int32?) -> Int32? {
        guard var x = from else {
            let first = s.firstChild(root)
            return first == _TreeStorage.none ? nil : first
        }
        let child = s.firstChild(x)
        if child != _TreeStorage.none { return child }
        while x != root {
            let sibling = s.nextSibling(x)
            if sibling != _TreeStorage.none { return sibling }
            x = s.parent[Int(x)]
        }
        return nil
    }

}

extension ViewTree {
    /// The depth of the deepest node (a root's is 0; 0 for an empty tree), from one pass
    /// over the index's tokens with no allocation: what `relative-view-bench` reports of a
    /// tree it imports or loads.
    ///
    /// - Complexity: O(n)
    package func _maximumDepth() -> Int {
        let tour = _storage.tour
        var (depth, deepest) = (0, 0)
        // The whole tour, block by block in order: each tree's tokens in turn.
        tour.token.withUnsafeBufferPointer { token in
            var b = tour.head
            while b >= 0 {
                let base = Int(b) * _TourBlocks.capacity
                for i in base ..< base + Int(tour.count[Int(b)]) {
                    // An enter token (a node's slot) goes one level down, an exit one up;
                    // a root is entered at depth 0.
                    if token[i] >= 0 {
                        deepest = max(deepest, depth)
                        depth += 1
                    } else {
                        depth -= 1
                    }
                }
                b = tour.next[Int(b)]
            }
        }
        return deepest
    }
}

extension ViewTree.Descendants: Collection {
    /// A place in the walk: the position of a descendant's enter token in the index and how
    /// many descendants come before it; ``endIndex`` is the root's exit token.
    public struct Index: Comparable, Sendable {
        let ordinal: Int
        let position: UInt32
        let isEnd: Bool

        /// Whether both are the end, or the same place.
        ///
        /// - Complexity: O(1)
        public static func == (a: Index, b: Index) -> Bool {
            a.isEnd || b.isEnd ? a.isEnd == b.isEnd : a.ordinal == b.ordinal
        }

        /// Whether `a` comes before `b` in pre-order (the end after every node).
        ///
        /// - Complexity: O(1)
        public static func < (a: Index, b: Index) -> Bool {
            if a.isEnd { return false }
            return b.isEnd || a.ordinal < b.ordinal
        }
    }

    /// The first descendant's place (the end for a leaf).
    ///
    /// - Complexity: O(1)
    public var startIndex: Index {
        let span = tree._storage.tour.span[Int(root)]
        return enter(from: tree._storage.tour.after(span.enter)!, ordinal: 0, end: span.exit)
    }

    /// The place after the last descendant.
    ///
    /// - Complexity: O(1)
    public var endIndex: Index { Index(ordinal: 0, position: tree._storage.tour.span[Int(root)].exit, isEnd: true) }

    /// The place after `i`.
    ///
    /// - Complexity: amortized O(1)
    public func index(after i: Index) -> Index {
        precondition(!i.isEnd, "cannot advance past the end of the descendants")
        let tour = tree._storage.tour
        return enter(from: tour.after(i.position)!, ordinal: i.ordinal + 1, end: tour.span[Int(root)].exit)
    }

    /// The descendant at `i`.
    ///
    /// - Complexity: O(1)
    public subscript(i: Index) -> NodeID {
        precondition(!i.isEnd, "the end index has no node")
        let s = tree._storage
        return s.nodeID(s.tour.token(at: i.position))
    }

    /// How many descendants the root has.
    ///
    /// - Complexity: O(blocks of the index the subtree spans): about size / 32.
    public var count: Int { tree._storage.tour.runLength(of: root) / 2 - 1 }

    /// Whether the root is a leaf.
    ///
    /// - Complexity: O(1)
    public var isEmpty: Bool { startIndex.isEnd }

    /// The first enter token at or after position `p`, or the end at `end`.
    private func enter(from p: UInt32, ordinal: Int, end: UInt32) -> Index {
        let tour = tree._storage.tour
        var p = p
        while p != end {
            if tour.token(at: p) >= 0 { return Index(ordinal: ordinal, position: p, isEnd: false) }
            p = tour.after(p)!
        }
        return Index(ordinal: ordinal, position: end, isEnd: true)
    }
}
