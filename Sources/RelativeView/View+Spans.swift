import RelativeViewCore

// The O(1) relative queries (`isRelativeAncestor`, `isRelativeDescendant`,
// `isRelativeSibling`) are the facade's hot path. They avoid, in order of cost:
// - retains: reading `_store` and `store.tree` would retain the store and the tree's
//   storage around the query (atomic operations that cost more than the query); the tree
//   is read through an unretained handle (`ViewTree._Unowned`) instead, and the query
//   methods promise `@_effects(releasenone)` (they release nothing the caller holds, a
//   rebuild of the index frees only its own temporaries), so callers that read views out
//   of an array do not retain them around the call either. (They are not `@inlinable`:
//   inlined, the index slot's atomic load lands in the caller, and the optimizer keeps the
//   caller's retains of both views around it, on the fast path too.)
// - dependent cache misses: on a large tree every view is a miss, and the node's generation
//   and interval in the tree's columns would be a second miss that waits for the first.
//   Each view keeps its interval and the epoch of the index it came from, so while that
//   index is fresh an ancestor query reads the two views (in parallel) and nothing else.
//   Cost: 8 bytes per view (the interval shares its 8 bytes with the lone tag); with
//   glibc's allocator a view's block grows from 80 to 96 bytes.
//
// The kept interval is exact: a view's `_spanEpoch` is reset whenever its `_store` or
// `_node` changes, any change to a tree drops its index, and a rebuilt index gets a new
// epoch (epochs are never reused), so "the store's fresh index has the view's epoch" means
// "nothing in this tree changed since the interval was read, after checking `_node`".

extension View {
    /// The tree this view shares with `view`, as an unretained handle for one O(1) query,
    /// or `nil` if they are in different trees (a view without a store shares none).
    ///
    /// Safe for the query: `self` and `view` are alive for the call, `self._store` keeps the
    /// store alive, the store keeps its tree, and an O(1) query changes neither (on a stale
    /// index it may publish a new index, which is atomic and leaves the columns alone).
    @inline(__always)
    final func _sharedTree(with view: View) -> ViewTree._Unowned? {
        guard let store = _store, store === view._store else { return nil }
        return store.tree._unowned
    }

    /// Whether `a` is a proper ancestor of `d`, both views of `tree`: one unsigned comparison
    /// of kept intervals while `tree`'s index is fresh and both views keep their interval from
    /// it; else the intervals are read from the index and kept, or, while the index is stale,
    /// the core walks the links (and counts the walk toward a rebuild).
    @inline(__always)
    static func _isProperAncestor(_ a: View, _ d: View, in tree: ViewTree._Unowned) -> Bool {
        let epoch = tree.indexEpoch
        if epoch != 0 && a._spanEpoch == epoch && d._spanEpoch == epoch {
            return _contains(a._tagOrSpan, properly: d._tagOrSpan)
        }
        return _isProperAncestorKeepingSpans(a, d, in: tree)
    }

    /// The slow path of ``_isProperAncestor(_:_:in:)``: out of line, so the fast path stays small.
    @inline(never)
    static func _isProperAncestorKeepingSpans(_ a: View, _ d: View, in tree: ViewTree._Unowned) -> Bool {
        guard let sa = a._keepSpan(of: tree), let sd = d._keepSpan(of: tree) else {
            return tree.isAncestor(a._node, of: d._node)
        }
        return _contains(sa, properly: sd)
    }

    /// Reads `_node`'s interval from `tree`'s fresh index (checking `_node`: a stale one
    /// traps) and keeps it with the index's epoch; `nil`, keeping nothing, while the index is stale.
    final func _keepSpan(of tree: ViewTree._Unowned) -> Int? {
        guard let span = tree.span(of: _node) else { return nil }
        _tagOrSpan = Int(bitPattern: UInt(UInt32(bitPattern: span.pre)) | UInt(UInt32(bitPattern: span.end)) << 32)
        _spanEpoch = span.epoch
        return _tagOrSpan
    }

    /// Whether the packed interval `outer` properly contains the packed interval `inner`'s
    /// start: `outer.pre < inner.pre < outer.end`, as one unsigned comparison.
    @inline(__always)
    static func _contains(_ outer: Int, properly inner: Int) -> Bool {
        let pre = Int32(truncatingIfNeeded: outer)
        let end = Int32(truncatingIfNeeded: outer >> 32)
        let p = Int32(truncatingIfNeeded: inner)
        return UInt32(bitPattern: p &- pre &- 1) < UInt32(bitPattern: end &- pre &- 1)
    }
}
