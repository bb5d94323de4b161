import RelativeViewCore

extension View {
    /// The nearest ancestor (`superview` first) for which `matches` returns true.
    ///
    /// The walk is over the tree as it was when the call began: views `matches` adds are not
    /// visited. Do not remove views from the tree in `matches`: one the walk has yet to reach
    /// traps, naming the cause, or, if a view added since took its place in the store, is
    /// visited as that view.
    ///
    /// - Parameter matches: Called on each ancestor, nearest first, until it returns true.
    /// - Returns: The nearest matching ancestor, or `nil`.
    /// - Complexity: O(depth) calls of `matches`; the naive core is the same.
    public func findFirstAncestor(by matches: (View) -> Bool) -> View? {
        guard let store = _store else { return nil }
        // A copy of the tree: `matches` may change the store's (see `ViewStore.group`).
        let tree = store.tree
        return tree.firstAncestor(of: _node) { matches(store.view($0)) }.map(store.view)
    }

    /// The nearest ancestor whose type is exactly one of `viewTypes` (a `Button` is not matched by `Control.self`).
    ///
    /// - Complexity: O(depth + viewTypes.count); the naive core is O(depth × viewTypes.count).
    public func findFirstAncestor(by viewTypes: [View.Type]) -> View? {
        guard let store = _store else { return nil }
        return store.tree._firstAncestor(of: _node, matching: store.typeKeys(viewTypes)).map(store.view)
    }

    /// The nearest ancestor whose tag is one of `tags`.
    ///
    /// - Complexity: O(depth + tags.count); the naive core is O(depth × tags.count).
    public func findFirstAncestor(by tags: [Int]) -> View? {
        guard let store = _store else { return nil }
        return store.tree.firstAncestor(of: _node, withTags: tags).map(store.view)
    }

    /// Whether this view is a relative ancestor of `view`: a proper ancestor, never itself.
    ///
    /// - Complexity: O(1); the naive core is O(depth of `view`).
    @inlinable
    public func isRelativeAncestor(of view: View) -> Bool { _isRelativeAncestor(of: view) }

    /// ``isRelativeAncestor(of:)``, with the promise that lets a caller skip retaining the
    /// views around the call (see `View+Spans.swift`): kept off the public declaration.
    @usableFromInline @_effects(releasenone)
    func _isRelativeAncestor(of view: View) -> Bool {
        guard let tree = _sharedTree(with: view) else { return false }
        return View._isProperAncestor(self, view, in: tree)
    }

    /// Groups the ancestors by the key `groupKey` returns; `nil` leaves an ancestor out.
    /// Each group lists its views nearest first. No match gives an empty dictionary.
    ///
    /// The walk is over the tree as it was when the call began: views `groupKey` adds are
    /// not visited. Do not remove views from the tree in `groupKey`: one the walk has yet to
    /// reach traps, naming the cause, or, if a view added since took its place in the
    /// store, is visited as that view.
    ///
    /// - Complexity: O(depth) calls of `groupKey`; the naive core is the same, plus a copy
    ///   of the group on each append.
    @inlinable
    public func groupAncestors<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] {
        guard let store = _store else { return [:] }
        return store.group(.ancestors, of: _node, by: groupKey)
    }

    /// Groups the ancestors whose type is exactly one of `viewTypes`, keyed by `String(describing:)` of the type.
    ///
    /// - Complexity: O(depth + viewTypes.count); the naive core is O(depth × viewTypes.count).
    public func groupAncestors(by viewTypes: [View.Type]) -> [String: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._ancestorSlots(of: _node, matching: store.typeKeys(viewTypes)))
    }

    /// Groups the ancestors whose tag is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(depth + tags.count); the naive core is O(depth × tags.count).
    public func groupAncestors(by tags: [Int]) -> [Int: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._ancestorSlots(of: _node, byTags: tags))
    }
}
