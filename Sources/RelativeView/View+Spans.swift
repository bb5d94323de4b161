import RelativeViewCore

// The O(1) relative queries (`isRelativeAncestor`, `isRelativeDescendant`,
// `isRelativeSibling`) are the facade's hot path. They avoid, in order of cost:
// - retains: reading `_store` and `store.tree` would retain the store and the tree's
//   storage around the query (atomic operations that cost more than the query); the tree
//   is read through an unretained handle (`ViewTree._Unowned`) instead, and the query
//   methods promise `@_effects(releasenone)` (they release nothing the caller holds), so
//   callers that read views out of an array do not retain them around the call either.
//   The promise is on internal `@usableFromInline` functions (`_isRelativeAncestor(of:)`
//   and its two siblings) that the public methods, `@inlinable`, call: it is the module's
//   own, never part of its public declarations (as swift-collections keeps its own).
// - dependent cache misses: on a large tree every view is a miss, and the node's generation
//   and positions in the tree's columns would be a second miss that waits for the first.
//   Each view keeps its positions in the index (enter and exit, packed in 8 bytes that the
//   interval shares with the lone tag) and the tree version they were read at, so while
//   the tree does not change an ancestor query reads the two views (in parallel) and, when
//   the outer subtree spans blocks, the index's block labels (a small, cache-resident array).
//
// The kept positions are exact: a view's `_spanVersion` is reset whenever its `_store` or
// `_node` changes, every change to a tree gives it a new version (versions are never
// reused, in any tree), so "the store's tree has the view's version" means "nothing in
// this tree changed since the positions were read, after checking `_node`".

extension View {
    /// The tree this view shares with `view`, as an unretained handle for one O(1) query,
    /// or `nil` if they are in different trees (a view without a store shares none).
    ///
    /// Safe for the query: `self` and `view` are alive for the call, `self._store` keeps the
    /// store alive, the store keeps its tree, and an O(1) query changes neither.
    @inline(__always)
    final func _sharedTree(with view: View) -> ViewTree._Unowned? {
        guard let store = _store, store === view._store else { return nil }
        return store.tree._unowned
    }

    /// Whether `a` is a proper ancestor of `d`, both views of `tree`: a comparison of kept
    /// positions while both views keep them from `tree`'s current version; else the positions
    /// are read from the index and kept.
    @inline(__always)
    static func _isProperAncestor(_ a: View, _ d: View, in tree: ViewTree._Unowned) -> Bool {
        let version = tree.version
        if a._spanVersion == version && d._spanVersion == version {
            return tree.contains(a._tagOrSpan, properly: d._tagOrSpan)
        }
        return _isProperAncestorKeepingSpans(a, d, in: tree)
    }

    /// The slow path of ``_isProperAncestor(_:_:in:)``: out of line, so the fast path stays small.
    @inline(never)
    static func _isProperAncestorKeepingSpans(_ a: View, _ d: View, in tree: ViewTree._Unowned) -> Bool {
        tree.contains(a._keepSpan(of: tree), properly: d._keepSpan(of: tree))
    }

    /// Reads `_node`'s positions from `tree`'s index (checking `_node`: a stale one traps)
    /// and keeps them with the tree's version.
    final func _keepSpan(of tree: ViewTree._Unowned) -> Int {
        let (version, span) = tree.span(of: _node)
        _tagOrSpan = span
        _spanVersion = version
        return span
    }
}
