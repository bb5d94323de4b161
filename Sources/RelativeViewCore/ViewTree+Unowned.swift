extension ViewTree {
    /// An unretained handle on a tree's storage, for the O(1) queries of a tree that lives in
    /// a class property: the RelativeView facade's store (package-only: it is unsafe).
    ///
    /// Reading such a tree copies it, and a copy retains and releases its storage: two atomic
    /// operations that cost more than the query itself. A handle is a plain pointer instead;
    /// its queries are the tree's, with the same checks (a stale `NodeID` still traps) and the
    /// same ski-rental bookkeeping on a stale index.
    ///
    /// Unsafe: make a handle right before the queries, and only while something else keeps
    /// the tree alive and unchanged until they return (the tree is not mutated, reassigned or
    /// freed meanwhile). Never store one.
    @usableFromInline
    package struct _Unowned {
        @usableFromInline let storage: Unmanaged<_TreeStorage>

        @inlinable @inline(__always)
        init(_ storage: _TreeStorage) {
            self.storage = Unmanaged.passUnretained(storage)
        }

        /// As ``ViewTree/isAncestor(_:of:)``.
        ///
        /// - Complexity: O(1) on a fresh index; otherwise O(depth of `b`), counted toward a rebuild.
        @inlinable @inline(__always)
        package func isAncestor(_ a: NodeID, of b: NodeID) -> Bool {
            storage._withUnsafeGuaranteedRef { $0.isAncestor(a, of: b) }
        }

        /// The epoch of the fresh index (a number no other index ever has), or 0 while the
        /// index is stale. Spans read from the index stay valid while its epoch is current.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package var indexEpoch: UInt64 {
            storage._withUnsafeGuaranteedRef { s in
                s.freshIndex?._withUnsafeGuaranteedRef { $0.epoch } ?? 0
            }
        }

        /// The pre-order interval of `node` in the fresh index with its epoch, or `nil` while
        /// the index is stale. Traps if `node` is stale.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func span(of node: NodeID) -> (epoch: UInt64, pre: Int32, end: Int32)? {
            storage._withUnsafeGuaranteedRef { s in
                s.check(node)
                return s.freshIndex?._withUnsafeGuaranteedRef { index in
                    let span = index.span[Int(node.index)]
                    return (index.epoch, span.pre, span.end)
                }
            }
        }

        /// As ``ViewTree/isSibling(_:of:)``.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func isSibling(_ a: NodeID, of b: NodeID) -> Bool {
            storage._withUnsafeGuaranteedRef { $0.isSibling(a, of: b) }
        }
    }

    /// An unretained handle on this tree's storage; see ``_Unowned`` for when it is safe.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    package var _unowned: _Unowned { _Unowned(_storage) }
}
