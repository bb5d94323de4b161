import RelativeViewEngine
extension ViewTree {
    /// An unretained handle on a tree's storage, for the O(1) queries of a tree that lives in
    /// a class property: the RelativeView facade's store (package-only: it is unsafe).
    ///
    /// Reading such a tree copies it, and a copy retains and releases its storage: two atomic
    /// operations that cost more than the query itself. A handle is a plain pointer instead;
    /// its queries are the tree's, with the same checks (a stale `NodeID` still traps), but
    /// for the `ofLive` ones, which check the generation in debug builds only.
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
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func isAncestor(_ a: NodeID, of b: NodeID) -> Bool {
            storage._withUnsafeGuaranteedRef { $0.isAncestor(a, of: b) }
        }

        /// The tree's version: a number no other shape of any tree ever has (never 0). Spans
        /// read from the index stay valid while it is current.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package var version: UInt64 {
            storage._withUnsafeGuaranteedRef { $0.version }
        }

        /// The positions of `node`'s enter and exit tokens in the index, packed in 64 bits,
        /// with the tree's version. Traps if `node` is stale.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func span(of node: NodeID) -> (version: UInt64, span: Int) {
            storage._withUnsafeGuaranteedRef { s in
                s.check(node)
                return (s.version, _TourBlocks.packed(s.tour.span[Int(node.index)]))
            }
        }

        /// The positions of the node in `slot` (packed as ``span(of:)`` packs them), a live
        /// slot that the caller tracks itself (the facade's views): no generation check.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func span(ofLiveSlot slot: Int) -> Int {
            storage._withUnsafeGuaranteedRef { s in
                assert(!_TreeStorage.isFree(s.parent[slot]), "slot \(slot) is free")
                return _TourBlocks.packed(s.tour.span[slot])
            }
        }

        /// Whether the packed span `outer` properly contains the packed span `inner`'s enter
        /// position, both read at the tree's current version.
        ///
        /// - Complexity: O(1): offsets alone when `outer` lies in one block, else up to four
        ///   block labels.
        @inlinable @inline(__always)
        package func contains(_ outer: Int, properly inner: Int) -> Bool {
            storage._withUnsafeGuaranteedRef { s in
                s.tour.encloses(
                    UInt32(truncatingIfNeeded: outer), UInt32(truncatingIfNeeded: outer >> 32),
                    UInt32(truncatingIfNeeded: inner))
            }
        }

        /// The tag of `node`, a node the caller keeps live itself (the facade's views track
        /// their nodes): the generation is checked in debug builds only, which saves a read
        /// of a second column per tag.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func tag(ofLive node: NodeID) -> Int {
            storage._withUnsafeGuaranteedRef { s in
                assert(s.isCurrent(node), "stale NodeID \(node) in the facade")
                return s.tag(at: node.index)
            }
        }

        /// As ``ViewTree/isSibling(_:of:)``, for two nodes the caller keeps live itself (the
        /// facade's views track their nodes): the generations are checked in debug builds
        /// only, so the query reads one column, not two, at each node.
        ///
        /// - Complexity: O(1)
        @inlinable @inline(__always)
        package func isSibling(ofLive a: NodeID, _ b: NodeID) -> Bool {
            storage._withUnsafeGuaranteedRef { s in
                assert(s.isCurrent(a) && s.isCurrent(b), "stale NodeID in the facade")
                let p = s.parent[Int(a.index)]
                return a != b && p != _TreeStorage.none && p == s.parent[Int(b.index)]
            }
        }
    }

    /// An unretained handle on this tree's storage; see ``_Unowned`` for when it is safe.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    package var _unowned: _Unowned { _Unowned(_storage) }
}
