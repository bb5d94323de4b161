// The relative-view queries, transliterated from the original UIKit extension: each
// relation is walked as the original walks it (ancestors up the weak superview chain,
// descendants by recursion on the call stack, siblings by a scan of the superview's
// `subviews`), searches stop at the first match, and each grouping copies its group's array
// on every append, exactly as the original does. The original has no searches but its
// ancestor search, and no child or following-sibling queries; those added here are written
// the same way.
// Classes match exactly (subclasses do not), by a loop over the asked classes; a grouping by
// classes keys each group by `String(describing:)` of the class (e.g. `"Button"`).

extension NaiveView {
    // MARK: Yes or no

    /// Returns `true` if this view is a strict ancestor of `view`; a view is never its own
    /// relative ancestor.
    ///
    /// - Complexity: O(depth of `view`)
    public func isRelativeAncestor(of view: NaiveView) -> Bool {
        guard self !== view else { return false }
        return view.findFirstAncestor { $0 === self } != nil
    }

    /// Returns `true` if this view is a strict descendant of `view`, searching the subtree
    /// of `view` from the top, as the original does (rather than walking this view's
    /// superview chain). A view is never its own relative descendant.
    ///
    /// - Complexity: O(n), where `n` is the number of views in the subtree of `view`.
    public func isRelativeDescendant(of view: NaiveView) -> Bool {
        guard self !== view else { return false }
        return !depthFirstTraverse(view) { $0 !== self }
    }

    /// Returns `true` if this view and `view` are distinct and share the same superview; a
    /// view without a superview has no siblings.
    ///
    /// - Complexity: O(1)
    public func isRelativeSibling(of view: NaiveView) -> Bool {
        guard self !== view, let a = self.superview, let b = view.superview, a === b else { return false }
        return true
    }

    /// Returns `true` if this view is one of the subviews of `view`.
    ///
    /// - Complexity: O(1)
    public func isRelativeChild(of view: NaiveView) -> Bool {
        guard let superview = self.superview, superview === view else { return false }
        return true
    }

    /// Returns `true` if this view is one of the subviews of the superview of `view` that
    /// come after `view`: a scan of `subviews` that meets `view` first.
    ///
    /// - Complexity: O(s), `s` the number of subviews of the superview.
    public func isRelativeFollowingSibling(of view: NaiveView) -> Bool {
        guard self !== view, let superview = view.superview, self.superview === superview else { return false }
        return !view.visit(.followingSiblings) { $0 !== self }
    }

    /// Returns the nearest view that is this view or one of its ancestors and also `view`
    /// or one of its ancestors, or `nil` for views of different trees: the superview chain
    /// of `view` is collected in a set, then this view's chain is walked up to the first
    /// view in it.
    ///
    /// - Complexity: O(depth of this view + depth of `view`)
    public func commonAncestor(with view: NaiveView) -> NaiveView? {
        var chainOfView = Set<ObjectIdentifier>()
        var current: NaiveView? = view
        while let ancestor = current {
            chainOfView.insert(ObjectIdentifier(ancestor))
            current = ancestor.superview
        }
        current = self
        while let ancestor = current {
            if chainOfView.contains(ObjectIdentifier(ancestor)) { return ancestor }
            current = ancestor.superview
        }
        return nil
    }

    // MARK: Search by closure

    /// Returns the nearest ancestor (starting with `superview`) for which `matches` returns
    /// `true`, or `nil`. The view itself is never considered.
    ///
    /// - Complexity: O(depth) calls to `matches`.
    public func findFirstAncestor(by matches: (NaiveView) -> Bool) -> NaiveView? { findFirst(.ancestors, by: matches) }

    /// Returns the first descendant in depth-first pre-order for which `matches` returns
    /// `true`, or `nil`: `depthFirstTraverse`, stopped at the first match.
    ///
    /// - Complexity: O(n) calls to `matches`, `n` the descendants visited.
    public func findFirstDescendant(by matches: (NaiveView) -> Bool) -> NaiveView? { findFirst(.descendants, by: matches) }

    /// Returns the first sibling in `subviews` order for which `matches` returns `true`, or
    /// `nil` (also with no superview).
    ///
    /// - Complexity: O(s) calls to `matches`, `s` the number of subviews of the superview.
    public func findFirstSibling(by matches: (NaiveView) -> Bool) -> NaiveView? { findFirst(.siblings, by: matches) }

    /// Returns the first subview for which `matches` returns `true`, or `nil`.
    ///
    /// - Complexity: O(c) calls to `matches`, `c` the number of subviews.
    public func findFirstChild(by matches: (NaiveView) -> Bool) -> NaiveView? { findFirst(.children, by: matches) }

    /// Returns the first subview after this one in its superview's `subviews` for which
    /// `matches` returns `true`, or `nil`.
    ///
    /// - Complexity: O(s) calls to `matches`, `s` the number of subviews of the superview.
    public func findFirstFollowingSibling(by matches: (NaiveView) -> Bool) -> NaiveView? { findFirst(.followingSiblings, by: matches) }

    // MARK: Search by classes

    /// Returns the nearest ancestor whose class is exactly one of `viewTypes`, or `nil`.
    ///
    /// - Complexity: O(depth × viewTypes.count)
    public func findFirstAncestor(by viewTypes: [NaiveView.Type]) -> NaiveView? { findFirst(.ancestors, by: viewTypes) }

    /// Returns the first descendant in pre-order whose class is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(n × viewTypes.count), `n` the descendants visited.
    public func findFirstDescendant(by viewTypes: [NaiveView.Type]) -> NaiveView? { findFirst(.descendants, by: viewTypes) }

    /// Returns the first sibling whose class is exactly one of `viewTypes`, or `nil`.
    ///
    /// - Complexity: O(s × viewTypes.count)
    public func findFirstSibling(by viewTypes: [NaiveView.Type]) -> NaiveView? { findFirst(.siblings, by: viewTypes) }

    /// Returns the first subview whose class is exactly one of `viewTypes`, or `nil`.
    ///
    /// - Complexity: O(c × viewTypes.count)
    public func findFirstChild(by viewTypes: [NaiveView.Type]) -> NaiveView? { findFirst(.children, by: viewTypes) }

    /// Returns the first following sibling whose class is exactly one of `viewTypes`, or `nil`.
    ///
    /// - Complexity: O(s × viewTypes.count)
    public func findFirstFollowingSibling(by viewTypes: [NaiveView.Type]) -> NaiveView? { findFirst(.followingSiblings, by: viewTypes) }

    // MARK: Search by tags

    /// Returns the nearest ancestor whose `tag` is one of `tags`, or `nil`.
    ///
    /// - Complexity: O(depth × tags.count)
    public func findFirstAncestor(by tags: [Int]) -> NaiveView? { findFirst(.ancestors, by: tags) }

    /// Returns the first descendant in pre-order whose `tag` is one of `tags`, or `nil`.
    ///
    /// - Complexity: O(n × tags.count), `n` the descendants visited.
    public func findFirstDescendant(by tags: [Int]) -> NaiveView? { findFirst(.descendants, by: tags) }

    /// Returns the first sibling whose `tag` is one of `tags`, or `nil`.
    ///
    /// - Complexity: O(s × tags.count)
    public func findFirstSibling(by tags: [Int]) -> NaiveView? { findFirst(.siblings, by: tags) }

    /// Returns the first subview whose `tag` is one of `tags`, or `nil`.
    ///
    /// - Complexity: O(c × tags.count)
    public func findFirstChild(by tags: [Int]) -> NaiveView? { findFirst(.children, by: tags) }

    /// Returns the first following sibling whose `tag` is one of `tags`, or `nil`.
    ///
    /// - Complexity: O(s × tags.count)
    public func findFirstFollowingSibling(by tags: [Int]) -> NaiveView? { findFirst(.followingSiblings, by: tags) }

    // MARK: Group by closure

    /// Groups the ancestors by the key `groupKey` returns (`nil` leaves one out), each
    /// group nearest first.
    ///
    /// - Complexity: O(depth) calls to `groupKey`, plus O(depth²) in the worst case (every
    ///   ancestor in one group): each append copies the group's array.
    public func groupAncestors<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] { group(.ancestors, by: groupKey) }

    /// Groups the descendants by the key `groupKey` returns (`nil` leaves one out), each
    /// group in depth-first pre-order.
    ///
    /// - Complexity: O(n) calls to `groupKey`, plus O(n²) in the worst case (every
    ///   descendant in one group): each append copies the group's array.
    public func groupDescendants<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] { group(.descendants, by: groupKey) }

    /// Groups the siblings (the other subviews of the superview) by the key `groupKey`
    /// returns (`nil` leaves one out), each group in `subviews` order; `[:]` with no superview.
    ///
    /// - Complexity: O(s) calls to `groupKey`, plus O(s²) in the worst case.
    public func groupSiblings<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] { group(.siblings, by: groupKey) }

    /// Groups the subviews by the key `groupKey` returns (`nil` leaves one out), each group
    /// in `subviews` order.
    ///
    /// - Complexity: O(c) calls to `groupKey`, plus O(c²) in the worst case.
    public func groupChildren<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] { group(.children, by: groupKey) }

    /// Groups the subviews after this one in its superview by the key `groupKey` returns
    /// (`nil` leaves one out), each group in `subviews` order; `[:]` with no superview.
    ///
    /// - Complexity: O(s) calls to `groupKey`, plus O(s²) in the worst case.
    public func groupFollowingSiblings<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] { group(.followingSiblings, by: groupKey) }

    // MARK: Group by classes

    /// Groups the ancestors whose class is exactly one of `viewTypes`, keyed by class name.
    ///
    /// - Complexity: O(depth × viewTypes.count + depth²) in the worst case.
    public func groupAncestors(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] { group(.ancestors, by: viewTypes) }

    /// Groups the descendants whose class is exactly one of `viewTypes`, keyed by class name.
    ///
    /// - Complexity: O(n × viewTypes.count + n²) in the worst case.
    public func groupDescendants(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] { group(.descendants, by: viewTypes) }

    /// Groups the siblings whose class is exactly one of `viewTypes`, keyed by class name.
    ///
    /// - Complexity: O(s × viewTypes.count + s²) in the worst case.
    public func groupSiblings(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] { group(.siblings, by: viewTypes) }

    /// Groups the subviews whose class is exactly one of `viewTypes`, keyed by class name.
    ///
    /// - Complexity: O(c × viewTypes.count + c²) in the worst case.
    public func groupChildren(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] { group(.children, by: viewTypes) }

    /// Groups the following siblings whose class is exactly one of `viewTypes`, keyed by class name.
    ///
    /// - Complexity: O(s × viewTypes.count + s²) in the worst case.
    public func groupFollowingSiblings(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] { group(.followingSiblings, by: viewTypes) }

    // MARK: Group by tags

    /// Groups the ancestors whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(depth × tags.count + depth²) in the worst case.
    public func groupAncestors(by tags: [Int]) -> [Int: [NaiveView]] { group(.ancestors, by: tags) }

    /// Groups the descendants whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(n × tags.count + n²) in the worst case.
    public func groupDescendants(by tags: [Int]) -> [Int: [NaiveView]] { group(.descendants, by: tags) }

    /// Groups the siblings whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(s × tags.count + s²) in the worst case.
    public func groupSiblings(by tags: [Int]) -> [Int: [NaiveView]] { group(.siblings, by: tags) }

    /// Groups the subviews whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(c × tags.count + c²) in the worst case.
    public func groupChildren(by tags: [Int]) -> [Int: [NaiveView]] { group(.children, by: tags) }

    /// Groups the following siblings whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(s × tags.count + s²) in the worst case.
    public func groupFollowingSiblings(by tags: [Int]) -> [Int: [NaiveView]] { group(.followingSiblings, by: tags) }
}

extension NaiveView {
    /// Which relatives of a view a query visits.
    enum Relatives {
        case ancestors, descendants, siblings, children, followingSiblings
    }

    /// Visits the `relatives` of this view in order, each relation walked as the original
    /// walks it, until `visit` returns `false`.
    ///
    /// - Returns: `false` if `visit` stopped the walk.
    @inline(__always) @discardableResult
    func visit(_ relatives: Relatives, _ visit: (NaiveView) -> Bool) -> Bool {
        switch relatives {
        case .ancestors:
            var currentAncestor: NaiveView? = self.superview
            while let ancestor = currentAncestor {
                guard visit(ancestor) else { return false }
                currentAncestor = ancestor.superview
            }
            return true
        case .descendants:
            return depthFirstTraverse(self, traversal: visit)
        case .siblings:
            guard let superview = superview else { return true }
            for sibling in superview.subviews where sibling !== self {
                guard visit(sibling) else { return false }
            }
            return true
        case .children:
            for subview in subviews {
                guard visit(subview) else { return false }
            }
            return true
        case .followingSiblings:
            guard let superview = superview else { return true }
            var passed = false
            for sibling in superview.subviews {
                if passed {
                    guard visit(sibling) else { return false }
                } else if sibling === self {
                    passed = true
                }
            }
            return true
        }
    }

    /// Visits the descendants of `view` depth-first, pre-order, in `subviews` order,
    /// recursively on the call stack exactly as the original does. Stops as soon as
    /// `traversal` returns `false`.
    ///
    /// - Returns: `false` if the traversal was stopped early, `true` otherwise.
    /// - Complexity: O(n) calls to `traversal`; recursion depth O(depth).
    func depthFirstTraverse(_ view: NaiveView, traversal: (NaiveView) -> Bool) -> Bool {
        for subview in view.subviews {
            guard traversal(subview) else { return false }
            guard depthFirstTraverse(subview, traversal: traversal) else { return false }
        }
        return true
    }

    /// The first of the `relatives` for which `matches` returns `true`.
    @inline(__always)
    func findFirst(_ relatives: Relatives, by matches: (NaiveView) -> Bool) -> NaiveView? {
        var found: NaiveView?
        visit(relatives) { relative in
            guard matches(relative) else { return true }
            found = relative
            return false
        }
        return found
    }

    /// The first of the `relatives` whose class is exactly one of `viewTypes`.
    func findFirst(_ relatives: Relatives, by viewTypes: [NaiveView.Type]) -> NaiveView? {
        findFirst(relatives) { relative in
            for viewType in viewTypes {
                if viewType == type(of: relative) { return true }
            }
            return false
        }
    }

    /// The first of the `relatives` whose `tag` is one of `tags`.
    func findFirst(_ relatives: Relatives, by tags: [Int]) -> NaiveView? {
        findFirst(relatives) { Self.tag(of: $0, amongst: tags) != nil }
    }

    /// The original's grouping: each append copies the group's array.
    @inline(__always)
    func group<Type: Hashable>(_ relatives: Relatives, by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] {
        var groups: [Type: [NaiveView]] = [:]
        visit(relatives) { relative in
            if let key = groupKey(relative) {
                var group: [NaiveView] = groups[key] ?? []
                group.append(relative)
                groups[key] = group
            }
            return true
        }
        return groups
    }

    /// The `relatives` whose class is exactly one of `viewTypes`, grouped by class name.
    func group(_ relatives: Relatives, by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] {
        group(relatives) { Self.typeName(of: $0, amongst: viewTypes) }
    }

    /// The `relatives` whose `tag` is one of `tags`, grouped by tag.
    func group(_ relatives: Relatives, by tags: [Int]) -> [Int: [NaiveView]] {
        group(relatives) { Self.tag(of: $0, amongst: tags) }
    }

    /// `String(describing:)` of the class of `view` when it is exactly one of `viewTypes`:
    /// the original's loop over the asked classes.
    @inline(__always)
    static func typeName(of view: NaiveView, amongst viewTypes: [NaiveView.Type]) -> String? {
        for viewType in viewTypes {
            let viewClass = type(of: view)
            if viewType == viewClass {
                return String(describing: viewClass)
            }
        }
        return nil
    }

    /// The tag of `view` when it is one of `tags`: the original's loop over the asked tags.
    @inline(__always)
    static func tag(of view: NaiveView, amongst tags: [Int]) -> Int? {
        for tag in tags {
            if tag == view.tag { return tag }
        }
        return nil
    }
}
