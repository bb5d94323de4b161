import RelativeViewCore

extension View {
    /// Whether this view and `view` are different views with the same non-nil superview.
    ///
    /// - Complexity: O(1); the naive core is the same.
    @inlinable
    public func isRelativeSibling(of view: View) -> Bool { _isRelativeSibling(of: view) }

    /// ``isRelativeSibling(of:)``, with the promise that lets a caller skip retaining the
    /// views around the call (see `View+Spans.swift`): kept off the public declaration.
    @usableFromInline @_effects(releasenone)
    func _isRelativeSibling(of view: View) -> Bool {
        guard let tree = _sharedTree(with: view) else { return false }
        return tree.isSibling(ofLive: _node, view._node)
    }

    /// Groups the siblings (the superview's subviews but this view) by the key `groupKey`
    /// returns; `nil` leaves a sibling out. Groups keep `subviews` order.
    ///
    /// The walk is over the tree as it was when the call began: views `groupKey` adds are
    /// not visited. Do not remove views from the tree in `groupKey`: one the walk has yet to
    /// reach traps, naming the cause, or, if a view added since took its place in the
    /// store, is visited as that view.
    ///
    /// - Complexity: O(number of siblings) calls of `groupKey`; the naive core is the same.
    @inlinable
    public func groupSiblings<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] {
        guard let store = _store else { return [:] }
        return store.group(.siblings, of: _node, by: groupKey)
    }

    /// Groups the siblings whose type is exactly one of `viewTypes`, keyed by `String(describing:)` of the type.
    ///
    /// - Complexity: O(number of siblings + viewTypes.count); the naive core is O(siblings × viewTypes.count).
    public func groupSiblings(by viewTypes: [View.Type]) -> [String: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._siblingSlots(of: _node, matching: store.typeKeys(viewTypes)))
    }

    /// Groups the siblings whose tag is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(number of siblings + tags.count); the naive core is O(siblings × tags.count).
    public func groupSiblings(by tags: [Int]) -> [Int: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._siblingSlots(of: _node, byTags: tags))
    }

    /// The first sibling in `subviews` order for which `matches` returns true; `nil` with no
    /// superview. The walk is over the tree as it was when the call began (see
    /// ``findFirstAncestor(by:)-((View)->Bool)``).
    ///
    /// - Complexity: O(siblings visited) calls of `matches`; the naive core is the same.
    public func findFirstSibling(by matches: (View) -> Bool) -> View? {
        guard let store = _store else { return nil }
        let tree = store.tree
        return tree.firstSibling(of: _node) { matches(store.view($0)) }.map(store.view)
    }

    /// The first sibling whose type is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(siblings visited + viewTypes.count); the naive core is
    ///   O(siblings visited × viewTypes.count).
    public func findFirstSibling(by viewTypes: [View.Type]) -> View? {
        guard let store = _store else { return nil }
        return store.tree._firstSibling(of: _node, matching: store.typeKeys(viewTypes)).map(store.view)
    }

    /// The first sibling whose tag is one of `tags`.
    ///
    /// - Complexity: O(siblings visited + tags.count); the naive core is
    ///   O(siblings visited × tags.count).
    public func findFirstSibling(by tags: [Int]) -> View? {
        guard let store = _store else { return nil }
        return store.tree.firstSibling(of: _node, withTags: tags).map(store.view)
    }
}
