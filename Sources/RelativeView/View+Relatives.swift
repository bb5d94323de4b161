import RelativeViewCore

// The relative-view API: every form (yes or no, search, grouping) of every relation
// (ancestors, descendants, siblings, children, following siblings) by every key (closure, classes, tags), one
// line each over the store (`ViewStore+Relatives.swift`), which asks the core's one
// implementation of each relation (`ViewTree+Relations.swift`).
//
// The walks of the closure forms are over the tree as it was when the call began: views the
// closure adds are not visited. Do not remove views from the tree in the closure: one the
// walk has yet to reach traps, naming the cause, or, if a view added since took its place in
// the store, is visited as that view. Classes match exactly (a `Button` is not matched by
// `Control.self`); a grouping by classes keys each group by `String(describing:)` of the
// class. A view without a superview has no ancestors and no siblings.

extension View {
    // MARK: Yes or no

    /// Whether this view is a relative ancestor of `view`: a proper ancestor, never itself.
    ///
    /// - Complexity: O(1); the naive core is O(depth of `view`).
    @inlinable
    public func isRelativeAncestor(of view: View) -> Bool { _isRelativeAncestor(of: view) }

    /// Whether this view is a relative descendant of `view`: a proper descendant, never itself.
    ///
    /// - Complexity: O(1); the naive core searches the subtree of `view` depth-first, O(size of that subtree).
    @inlinable
    public func isRelativeDescendant(of view: View) -> Bool { _isRelativeDescendant(of: view) }

    /// Whether this view and `view` are different views with the same non-nil superview.
    ///
    /// - Complexity: O(1); the naive core is the same.
    @inlinable
    public func isRelativeSibling(of view: View) -> Bool { _isRelativeSibling(of: view) }

    /// Whether this view is one of the subviews of `view`.
    ///
    /// - Complexity: O(1); the naive core is the same.
    public func isRelativeChild(of view: View) -> Bool { superview === view }

    /// Whether this view is one of the subviews of the superview of `view` that come after `view`.
    ///
    /// - Complexity: O(1); the naive core is O(number of siblings).
    public func isRelativeFollowingSibling(of view: View) -> Bool {
        guard let store = _store, store === view._store else { return false }
        return store.tree.isRelative(_node, .followingSiblings, of: view._node)
    }

    /// The nearest view that is this view or one of its ancestors and also `view` or one of
    /// its ancestors (a view is its own common ancestor with itself, and an ancestor of
    /// `view` is theirs); `nil` for views of different trees.
    ///
    /// - Complexity: O(depth of this view - depth of the answer), each step an O(1)
    ///   ancestor test; the naive core is O(depth of both).
    public func commonAncestor(with view: View) -> View? {
        // A view alone (in no tree yet) has no store, and is its own common ancestor.
        if view === self { return self }
        guard let store = _store, store === view._store else { return nil }
        return store.tree.lowestCommonAncestor(_node, view._node).map(store.view)
    }

    // MARK: Search by closure

    /// The nearest ancestor (`superview` first) for which `matches` returns true, or `nil`.
    ///
    /// - Complexity: O(depth) calls of `matches`; the naive core is the same.
    public func findFirstAncestor(by matches: (View) -> Bool) -> View? { _store?.first(.ancestors, of: _node, where: matches) }

    /// The first descendant in depth-first pre-order (a view, then its subviews' subtrees in
    /// `subviews` order) for which `matches` returns true, or `nil`.
    ///
    /// - Complexity: O(descendants visited) calls of `matches`; the naive core is the same.
    public func findFirstDescendant(by matches: (View) -> Bool) -> View? { _store?.first(.descendants, of: _node, where: matches) }

    /// The first sibling in `subviews` order for which `matches` returns true, or `nil`.
    ///
    /// - Complexity: O(siblings visited) calls of `matches`; the naive core is the same.
    public func findFirstSibling(by matches: (View) -> Bool) -> View? { _store?.first(.siblings, of: _node, where: matches) }

    /// The first subview for which `matches` returns true, or `nil`.
    ///
    /// - Complexity: O(subviews visited) calls of `matches`; the naive core is the same.
    public func findFirstChild(by matches: (View) -> Bool) -> View? { _store?.first(.children, of: _node, where: matches) }

    /// The first of the subviews after this one in its superview for which `matches`
    /// returns true, or `nil`.
    ///
    /// - Complexity: O(siblings visited) calls of `matches`; the naive core is O(siblings).
    public func findFirstFollowingSibling(by matches: (View) -> Bool) -> View? { _store?.first(.followingSiblings, of: _node, where: matches) }

    // MARK: Search by classes

    /// The nearest ancestor whose class is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(depth + viewTypes.count); the naive core is O(depth × viewTypes.count).
    public func findFirstAncestor(by viewTypes: [View.Type]) -> View? { _store?.first(.ancestors, of: _node, by: viewTypes) }

    /// The first descendant in pre-order whose class is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(descendants visited + viewTypes.count); the naive core is
    ///   O(descendants visited × viewTypes.count).
    public func findFirstDescendant(by viewTypes: [View.Type]) -> View? { _store?.first(.descendants, of: _node, by: viewTypes) }

    /// The first sibling whose class is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(siblings visited + viewTypes.count); the naive core is
    ///   O(siblings visited × viewTypes.count).
    public func findFirstSibling(by viewTypes: [View.Type]) -> View? { _store?.first(.siblings, of: _node, by: viewTypes) }

    /// The first subview whose class is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(subviews visited + viewTypes.count); the naive core is
    ///   O(subviews visited × viewTypes.count).
    public func findFirstChild(by viewTypes: [View.Type]) -> View? { _store?.first(.children, of: _node, by: viewTypes) }

    /// The first following sibling (nearest first) whose class is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(siblings visited + viewTypes.count); the naive core is
    ///   O(siblings × viewTypes.count).
    public func findFirstFollowingSibling(by viewTypes: [View.Type]) -> View? { _store?.first(.followingSiblings, of: _node, by: viewTypes) }

    // MARK: Search by tags

    /// The nearest ancestor whose tag is one of `tags`.
    ///
    /// - Complexity: O(depth + tags.count); the naive core is O(depth × tags.count).
    public func findFirstAncestor(by tags: [Int]) -> View? { _store?.first(.ancestors, of: _node, byTags: tags) }

    /// The first descendant in pre-order whose tag is one of `tags`.
    ///
    /// - Complexity: O(descendants visited + tags.count); the naive core is
    ///   O(descendants visited × tags.count).
    public func findFirstDescendant(by tags: [Int]) -> View? { _store?.first(.descendants, of: _node, byTags: tags) }

    /// The first sibling whose tag is one of `tags`.
    ///
    /// - Complexity: O(siblings visited + tags.count); the naive core is
    ///   O(siblings visited × tags.count).
    public func findFirstSibling(by tags: [Int]) -> View? { _store?.first(.siblings, of: _node, byTags: tags) }

    /// The first subview whose tag is one of `tags`.
    ///
    /// - Complexity: O(subviews visited + tags.count); the naive core is
    ///   O(subviews visited × tags.count).
    public func findFirstChild(by tags: [Int]) -> View? { _store?.first(.children, of: _node, byTags: tags) }

    /// The first following sibling (nearest first) whose tag is one of `tags`.
    ///
    /// - Complexity: O(siblings visited + tags.count); the naive core is
    ///   O(siblings × tags.count).
    public func findFirstFollowingSibling(by tags: [Int]) -> View? { _store?.first(.followingSiblings, of: _node, byTags: tags) }

    // MARK: Group by closure

    /// Groups the ancestors by the key `groupKey` returns; `nil` leaves an ancestor out.
    /// Each group lists its views nearest first. No match gives an empty dictionary.
    ///
    /// - Complexity: O(depth) calls of `groupKey`; the naive core is the same, plus a copy
    ///   of the group on each append.
    @inlinable public func groupAncestors<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] { _store?.group(.ancestors, of: _node, by: groupKey) ?? [:] }

    /// Groups the descendants by the key `groupKey` returns; `nil` leaves a descendant out.
    /// Each group lists its views in depth-first pre-order.
    ///
    /// - Complexity: O(subtree size) calls of `groupKey`; the naive core is the same, by
    ///   recursion, plus a copy of the group on each append.
    @inlinable public func groupDescendants<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] { _store?.group(.descendants, of: _node, by: groupKey) ?? [:] }

    /// Groups the siblings (the superview's subviews but this view) by the key `groupKey`
    /// returns; `nil` leaves a sibling out. Groups keep `subviews` order.
    ///
    /// - Complexity: O(number of siblings) calls of `groupKey`; the naive core is the same.
    @inlinable public func groupSiblings<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] { _store?.group(.siblings, of: _node, by: groupKey) ?? [:] }

    /// Groups the subviews by the key `groupKey` returns; `nil` leaves one out. Groups keep
    /// `subviews` order.
    ///
    /// - Complexity: O(number of subviews) calls of `groupKey`; the naive core is the same,
    ///   plus a copy of the group on each append.
    @inlinable public func groupChildren<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] { _store?.group(.children, of: _node, by: groupKey) ?? [:] }

    /// Groups the subviews after this one in its superview by the key `groupKey` returns;
    /// `nil` leaves one out. Groups keep `subviews` order.
    ///
    /// - Complexity: O(following siblings) calls of `groupKey`; the naive core is O(siblings).
    @inlinable public func groupFollowingSiblings<Type: Hashable>(by groupKey: (View) -> Type?) -> [Type: [View]] { _store?.group(.followingSiblings, of: _node, by: groupKey) ?? [:] }

    // MARK: Group by classes

    /// Groups the ancestors whose class is exactly one of `viewTypes`, keyed by class name, nearest first.
    ///
    /// - Complexity: O(depth + viewTypes.count); the naive core is O(depth × viewTypes.count).
    public func groupAncestors(by viewTypes: [View.Type]) -> [String: [View]] { _store?.group(.ancestors, of: _node, by: viewTypes) ?? [:] }

    /// Groups the descendants whose class is exactly one of `viewTypes`, keyed by class name, in pre-order.
    ///
    /// - Complexity: O(subtree size), a scan of the type copies in the subtree's run of the
    ///   index; the naive core is O(subtree size × viewTypes.count) plus group copies.
    public func groupDescendants(by viewTypes: [View.Type]) -> [String: [View]] { _store?.group(.descendants, of: _node, by: viewTypes) ?? [:] }

    /// Groups the siblings whose class is exactly one of `viewTypes`, keyed by class name, in `subviews` order.
    ///
    /// - Complexity: O(number of siblings + viewTypes.count); the naive core is O(siblings × viewTypes.count).
    public func groupSiblings(by viewTypes: [View.Type]) -> [String: [View]] { _store?.group(.siblings, of: _node, by: viewTypes) ?? [:] }

    /// Groups the subviews whose class is exactly one of `viewTypes`, keyed by class name, in `subviews` order.
    ///
    /// - Complexity: O(number of subviews + viewTypes.count); the naive core is O(subviews × viewTypes.count).
    public func groupChildren(by viewTypes: [View.Type]) -> [String: [View]] { _store?.group(.children, of: _node, by: viewTypes) ?? [:] }

    /// Groups the following siblings whose class is exactly one of `viewTypes`, keyed by class name, in `subviews` order.
    ///
    /// - Complexity: O(following siblings + viewTypes.count); the naive core is O(siblings × viewTypes.count).
    public func groupFollowingSiblings(by viewTypes: [View.Type]) -> [String: [View]] { _store?.group(.followingSiblings, of: _node, by: viewTypes) ?? [:] }

    // MARK: Group by tags

    /// Groups the ancestors whose tag is one of `tags`, keyed by tag, nearest first.
    ///
    /// - Complexity: O(depth + tags.count); the naive core is O(depth × tags.count).
    public func groupAncestors(by tags: [Int]) -> [Int: [View]] { _store?.group(.ancestors, of: _node, byTags: tags) ?? [:] }

    /// Groups the descendants whose tag is one of `tags`, keyed by tag, each group in pre-order.
    ///
    /// - Complexity: O(subtree size), a scan of the tag copies in the subtree's run of the
    ///   index; the naive core is O(subtree size × tags.count) plus group copies.
    public func groupDescendants(by tags: [Int]) -> [Int: [View]] { _store?.group(.descendants, of: _node, byTags: tags) ?? [:] }

    /// Groups the siblings whose tag is one of `tags`, keyed by tag, in `subviews` order.
    ///
    /// - Complexity: O(number of siblings + tags.count); the naive core is O(siblings × tags.count).
    public func groupSiblings(by tags: [Int]) -> [Int: [View]] { _store?.group(.siblings, of: _node, byTags: tags) ?? [:] }

    /// Groups the subviews whose tag is one of `tags`, keyed by tag, in `subviews` order.
    ///
    /// - Complexity: O(number of subviews + tags.count); the naive core is O(subviews × tags.count).
    public func groupChildren(by tags: [Int]) -> [Int: [View]] { _store?.group(.children, of: _node, byTags: tags) ?? [:] }

    /// Groups the following siblings whose tag is one of `tags`, keyed by tag, in `subviews` order.
    ///
    /// - Complexity: O(following siblings + tags.count); the naive core is O(siblings × tags.count).
    public func groupFollowingSiblings(by tags: [Int]) -> [Int: [View]] { _store?.group(.followingSiblings, of: _node, byTags: tags) ?? [:] }
}

extension View {
    // The O(1) questions, with the promise that lets a caller skip retaining the views
    // around the call (see `View+Spans.swift`): kept off the public declarations.

    @usableFromInline @_effects(releasenone)
    func _isRelativeAncestor(of view: View) -> Bool {
        guard let tree = _sharedTree(with: view) else { return false }
        return View._isProperAncestor(self, view, in: tree)
    }

    @usableFromInline @_effects(releasenone)
    func _isRelativeSibling(of view: View) -> Bool {
        guard let tree = _sharedTree(with: view) else { return false }
        return tree.isSibling(ofLive: _node, view._node)
    }

    @usableFromInline @_effects(releasenone)
    func _isRelativeDescendant(of view: View) -> Bool {
        guard let tree = _sharedTree(with: view) else { return false }
        return View._isProperAncestor(view, self, in: tree)
    }
}
