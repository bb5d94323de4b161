import RelativeViewCore

extension View {
    /// Whether this view is a relative descendant of `view`: a proper descendant, never itself.
    ///
    /// - Complexity: O(1); the naive core searches the subtree of `view` depth-first, O(size of that subtree).
    @inlinable
    public func isRelativeDescendant(of view: View) -> Bool { _isRelativeDescendant(of: view) }

    /// ``isRelativeDescendant(of:)``, with the promise that lets a caller skip retaining the
    /// views around the call (see `View+Spans.swift`): kept off the public declaration.
    @usableFromInline @_effects(releasenone)
    func _isRelativeDescendant(of view: View) -> Bool {
        guard let tree = _sharedTree(with: view) else { return false }
        return View._isProperAncestor(view, self, in: tree)
    }

    /// Groups the descendants by the key `groupKey` returns; `nil` leaves a descendant out.
    /// Each group lists its views in depth-first pre-order (a view, then its subviews' subtrees in order).
    ///
    /// The walk is over the tree as it was when the call began: views `groupKey` adds are
    /// not visited. Do not remove views from the tree in `groupKey`: one the walk has yet to
    /// reach traps, naming the cause, or, if a view added since took its place in the
    /// store, is visited as that view.
    ///
    /// - Complexity: O(subtree size) calls of `groupKey`; the naive core is the same, by
    ///   recursion, plus a copy of the group on each append.
    @inlinable
    public func groupDescendants<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] {
        guard let store = _store else { return [:] }
        return store.group(.descendants, of: _node, by: groupKey)
    }

    /// Groups the descendants whose type is exactly one of `viewTypes`, keyed by `String(describing:)` of the type.
    ///
    /// - Complexity: O(subtree size), a scan of the type copies in the subtree's run of the
    ///   index; the naive core is O(subtree size × viewTypes.count) plus group copies.
    public func groupDescendants(by viewTypes: [View.Type]) -> [String: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._descendantSlots(of: _node, matching: store.typeKeys(viewTypes)))
    }

    /// Groups the descendants whose tag is one of `tags`, keyed by tag, each group in pre-order.
    ///
    /// - Complexity: O(subtree size), a scan of the tag copies in the subtree's run of the
    ///   index; the naive core is O(subtree size × tags.count) plus group copies.
    public func groupDescendants(by tags: [Int]) -> [Int: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._descendantSlots(of: _node, byTags: tags))
    }

    /// The first descendant in depth-first pre-order (`subviews` order) for which `matches`
    /// returns true. The walk is over the tree as it was when the call began (see
    /// ``findFirstAncestor(by:)-((View)->Bool)``).
    ///
    /// - Complexity: O(descendants visited) calls of `matches`; the naive core is the same.
    public func findFirstDescendant(by matches: (View) -> Bool) -> View? {
        guard let store = _store else { return nil }
        let tree = store.tree
        return tree.firstDescendant(of: _node) { matches(store.view($0)) }.map(store.view)
    }

    /// The first descendant in pre-order whose type is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(descendants visited + viewTypes.count); the naive core is
    ///   O(descendants visited × viewTypes.count).
    public func findFirstDescendant(by viewTypes: [View.Type]) -> View? {
        guard let store = _store else { return nil }
        return store.tree._firstDescendant(of: _node, matching: store.typeKeys(viewTypes)).map(store.view)
    }

    /// The first descendant in pre-order whose tag is one of `tags`.
    ///
    /// - Complexity: O(descendants visited + tags.count); the naive core is
    ///   O(descendants visited × tags.count).
    public func findFirstDescendant(by tags: [Int]) -> View? {
        guard let store = _store else { return nil }
        return store.tree.firstDescendant(of: _node, withTags: tags).map(store.view)
    }
}
