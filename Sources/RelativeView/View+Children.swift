import RelativeViewCore

extension View {
    /// Whether this view is one of the subviews of `view`.
    ///
    /// - Complexity: O(1); the naive core is the same.
    public func isRelativeChild(of view: View) -> Bool {
        superview === view
    }

    /// The first subview for which `matches` returns true. The walk is over the tree as it
    /// was when the call began (see ``findFirstAncestor(by:)-((View)->Bool)``).
    ///
    /// - Complexity: O(subviews visited) calls of `matches`; the naive core is the same.
    public func findFirstChild(by matches: (View) -> Bool) -> View? {
        guard let store = _store else { return nil }
        let tree = store.tree
        return tree.firstChild(of: _node) { matches(store.view($0)) }.map(store.view)
    }

    /// The first subview whose type is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(subviews visited + viewTypes.count); the naive core is
    ///   O(subviews visited × viewTypes.count).
    public func findFirstChild(by viewTypes: [View.Type]) -> View? {
        guard let store = _store else { return nil }
        return store.tree._firstChild(of: _node, matching: store.typeKeys(viewTypes)).map(store.view)
    }

    /// The first subview whose tag is one of `tags`.
    ///
    /// - Complexity: O(subviews visited + tags.count); the naive core is
    ///   O(subviews visited × tags.count).
    public func findFirstChild(by tags: [Int]) -> View? {
        guard let store = _store else { return nil }
        return store.tree.firstChild(of: _node, withTags: tags).map(store.view)
    }

    /// Groups the subviews by the key `groupKey` returns; `nil` leaves one out. Groups keep
    /// `subviews` order. The walk is over the tree as it was when the call began, as for the
    /// other groupings by closure.
    ///
    /// - Complexity: O(number of subviews) calls of `groupKey`; the naive core is the same,
    ///   plus a copy of the group on each append.
    @inlinable
    public func groupChildren<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] {
        guard let store = _store else { return [:] }
        return store.group(.children, of: _node, by: groupKey)
    }

    /// Groups the subviews whose type is exactly one of `viewTypes`, keyed by `String(describing:)` of the type.
    ///
    /// - Complexity: O(number of subviews + viewTypes.count); the naive core is O(subviews × viewTypes.count).
    public func groupChildren(by viewTypes: [View.Type]) -> [String: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._childSlots(of: _node, matching: store.typeKeys(viewTypes)))
    }

    /// Groups the subviews whose tag is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(number of subviews + tags.count); the naive core is O(subviews × tags.count).
    public func groupChildren(by tags: [Int]) -> [Int: [View]] {
        guard let store = _store else { return [:] }
        return store.views(store.tree._childSlots(of: _node, byTags: tags))
    }
}
