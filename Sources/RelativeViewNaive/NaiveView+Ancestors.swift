// Ancestor queries, transliterated from the original relative-view UIKit
// extension: a plain walk up the weak superview chain.

extension NaiveView {
    /// Returns the nearest ancestor (starting with `superview`) for which
    /// `matches` returns `true`, or `nil` if there is none.
    ///
    /// The view itself is never considered.
    ///
    /// - Complexity: O(depth) calls to `matches`.
    public func findFirstAncestor(by matches: (NaiveView) -> Bool) -> NaiveView? {
        var currentAncestor: NaiveView? = self.superview
        while let ancestor = currentAncestor {
            if matches(ancestor) { return ancestor }
            currentAncestor = ancestor.superview
        }
        return nil
    }

    /// Returns the nearest ancestor whose dynamic type is exactly one of
    /// `viewTypes` (subclasses do not match), or `nil` if there is none.
    ///
    /// - Complexity: O(depth × viewTypes.count)
    public func findFirstAncestor(by viewTypes: [NaiveView.Type]) -> NaiveView? {
        findFirstAncestor { ancestor in
            for viewType in viewTypes {
                if viewType == type(of: ancestor) { return true }
            }
            return false
        }
    }

    /// Returns the nearest ancestor whose `tag` is one of `tags`, or `nil` if
    /// there is none.
    ///
    /// - Complexity: O(depth × tags.count)
    public func findFirstAncestor(by tags: [Int]) -> NaiveView? {
        findFirstAncestor { ancestor in
            for tag in tags {
                if tag == ancestor.tag { return true }
            }
            return false
        }
    }

    /// Returns `true` if this view is a strict ancestor of `view`.
    ///
    /// A view is never its own relative ancestor.
    ///
    /// - Complexity: O(depth of `view`)
    public func isRelativeAncestor(of view: NaiveView) -> Bool {
        guard self !== view else { return false }
        return view.findFirstAncestor { $0 === self } != nil
    }

    /// Groups the ancestors of this view by the key `groupKey` returns;
    /// ancestors for which it returns `nil` are left out.
    ///
    /// Within each group, ancestors are listed nearest first.
    ///
    /// - Complexity: O(depth²) in the worst case (every ancestor in one
    ///   group), because each append copies the group's array, exactly as
    ///   the original does; O(depth) calls to `groupKey`.
    public func groupAncestors<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] {
        var groups: [Type: [NaiveView]] = [:]
        var currentAncestor = superview
        while let ancestor = currentAncestor {
            if let key = groupKey(ancestor) {
                var ancestors: [NaiveView] = groups[key] ?? []
                ancestors.append(ancestor)
                groups[key] = ancestors
            }
            currentAncestor = ancestor.superview
        }
        return groups
    }

    /// Groups the ancestors whose dynamic type is exactly one of `viewTypes`,
    /// keyed by `String(describing:)` of that type (e.g. `"Button"`).
    ///
    /// - Complexity: O(depth × viewTypes.count + depth²) in the worst case;
    ///   see the closure-based `groupAncestors(by:)`.
    public func groupAncestors(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] {
        groupAncestors { (ancestor: NaiveView) -> String? in
            for viewType in viewTypes {
                let ancestorType = type(of: ancestor)
                if viewType == ancestorType {
                    return String(describing: ancestorType)
                }
            }
            return nil
        }
    }

    /// Groups the ancestors whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(depth × tags.count + depth²) in the worst case;
    ///   see the closure-based `groupAncestors(by:)`.
    public func groupAncestors(by tags: [Int]) -> [Int: [NaiveView]] {
        groupAncestors { (ancestor: NaiveView) -> Int? in
            for tag in tags {
                if tag == ancestor.tag { return tag }
            }
            return nil
        }
    }
}
