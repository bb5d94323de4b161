// Descendant queries, transliterated from the original relative-view UIKit
// extension: a recursive depth-first traversal on the call stack.

extension NaiveView {
    /// Visits the descendants of `view` depth-first, pre-order, in `subviews`
    /// order, recursively on the call stack exactly as the original does.
    /// Stops as soon as `traversal` returns `false`.
    ///
    /// - Returns: `false` if the traversal was stopped early, `true`
    ///   otherwise.
    /// - Complexity: O(n) calls to `traversal`; recursion depth O(depth).
    func depthFirstTraverse(_ view: NaiveView, traversal: (NaiveView) -> Bool) -> Bool {
        for subview in view.subviews {
            guard traversal(subview) else { return false }
            guard depthFirstTraverse(subview, traversal: traversal) else { return false }
        }
        return true
    }

    /// Returns `true` if this view is a strict descendant of `view`.
    ///
    /// Searches the subtree of `view` from the top, as the original does
    /// (rather than walking this view's superview chain). A view is never
    /// its own relative descendant.
    ///
    /// - Complexity: O(n), where `n` is the number of views in the subtree
    ///   of `view`.
    public func isRelativeDescendant(of view: NaiveView) -> Bool {
        guard self !== view else { return false }
        return !depthFirstTraverse(view) { $0 !== self }
    }

    /// Returns the first descendant in depth-first pre-order for which `matches`
    /// returns `true`, or `nil` if there is none. The original has no such
    /// search; this one stops its traversal (`depthFirstTraverse`) at the
    /// first match, as a search written with it would.
    ///
    /// - Complexity: O(n) calls to `matches`, where `n` is the number of
    ///   descendants visited before the match.
    public func findFirstDescendant(by matches: (NaiveView) -> Bool) -> NaiveView? {
        var found: NaiveView?
        _ = depthFirstTraverse(self) { descendant in
            guard matches(descendant) else { return true }
            found = descendant
            return false
        }
        return found
    }

    /// Returns the first descendant in pre-order whose dynamic type is
    /// exactly one of `viewTypes`, or `nil` if there is none.
    ///
    /// - Complexity: O(n × viewTypes.count); see `findFirstDescendant(by:)`.
    public func findFirstDescendant(by viewTypes: [NaiveView.Type]) -> NaiveView? {
        findFirstDescendant { descendant in
            for viewType in viewTypes {
                if viewType == type(of: descendant) { return true }
            }
            return false
        }
    }

    /// Returns the first descendant in pre-order whose `tag` is one of
    /// `tags`, or `nil` if there is none.
    ///
    /// - Complexity: O(n × tags.count); see `findFirstDescendant(by:)`.
    public func findFirstDescendant(by tags: [Int]) -> NaiveView? {
        findFirstDescendant { descendant in
            for tag in tags {
                if tag == descendant.tag { return true }
            }
            return false
        }
    }

    /// Groups the descendants of this view by the key `groupKey` returns;
    /// descendants for which it returns `nil` are left out.
    ///
    /// Within each group, descendants are listed in depth-first pre-order.
    ///
    /// - Complexity: O(n) calls to `groupKey`, plus O(n²) in the worst case
    ///   (every descendant in one group), because each append copies the
    ///   group's array, exactly as the original does.
    public func groupDescendants<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] {
        var groups: [Type: [NaiveView]] = [:]
        _ = depthFirstTraverse(self) { descendant in
            if let key = groupKey(descendant) {
                var descendants: [NaiveView] = groups[key] ?? []
                descendants.append(descendant)
                groups[key] = descendants
            }
            return true
        }
        return groups
    }

    /// Groups the descendants whose dynamic type is exactly one of
    /// `viewTypes`, keyed by `String(describing:)` of that type
    /// (e.g. `"Button"`).
    ///
    /// - Complexity: O(n × viewTypes.count + n²) in the worst case;
    ///   see the closure-based `groupDescendants(by:)`.
    public func groupDescendants(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] {
        groupDescendants { (descendant: NaiveView) -> String? in
            for viewType in viewTypes {
                let descendantType = type(of: descendant)
                if viewType == descendantType {
                    return String(describing: descendantType)
                }
            }
            return nil
        }
    }

    /// Groups the descendants whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(n × tags.count + n²) in the worst case;
    ///   see the closure-based `groupDescendants(by:)`.
    public func groupDescendants(by tags: [Int]) -> [Int: [NaiveView]] {
        groupDescendants { (descendant: NaiveView) -> Int? in
            for tag in tags {
                if tag == descendant.tag { return tag }
            }
            return nil
        }
    }
}
