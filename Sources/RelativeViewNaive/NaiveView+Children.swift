// Child queries. The original has none; these are written as its sibling queries are: a
// scan of `subviews`, each grouping copying its group's array on every append.

extension NaiveView {
    /// Returns `true` if this view is one of the subviews of `view`.
    ///
    /// - Complexity: O(1)
    public func isRelativeChild(of view: NaiveView) -> Bool {
        guard let superview = self.superview, superview === view else { return false }
        return true
    }

    /// Returns the first subview for which `matches` returns `true`, or `nil`.
    ///
    /// - Complexity: O(c) calls to `matches`, where `c` is the number of subviews.
    public func findFirstChild(by matches: (NaiveView) -> Bool) -> NaiveView? {
        for subview in subviews {
            if matches(subview) { return subview }
        }
        return nil
    }

    /// Returns the first subview whose dynamic type is exactly one of `viewTypes`.
    ///
    /// - Complexity: O(c × viewTypes.count)
    public func findFirstChild(by viewTypes: [NaiveView.Type]) -> NaiveView? {
        findFirstChild { child in
            for viewType in viewTypes {
                if viewType == type(of: child) { return true }
            }
            return false
        }
    }

    /// Returns the first subview whose `tag` is one of `tags`.
    ///
    /// - Complexity: O(c × tags.count)
    public func findFirstChild(by tags: [Int]) -> NaiveView? {
        findFirstChild { child in
            for tag in tags {
                if tag == child.tag { return true }
            }
            return false
        }
    }

    /// Groups the subviews by the key `groupKey` returns; those for which it returns `nil`
    /// are left out. Within each group, subviews keep `subviews` order.
    ///
    /// - Complexity: O(c) calls to `groupKey`, plus O(c²) in the worst case (every subview
    ///   in one group): each append copies the group's array, as the original's groupings do.
    public func groupChildren<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] {
        var groups: [Type: [NaiveView]] = [:]
        for child in subviews {
            if let key = groupKey(child) {
                var children: [NaiveView] = groups[key] ?? []
                children.append(child)
                groups[key] = children
            }
        }
        return groups
    }

    /// Groups the subviews whose dynamic type is exactly one of `viewTypes`, keyed by
    /// `String(describing:)` of that type.
    ///
    /// - Complexity: O(c × viewTypes.count + c²) in the worst case.
    public func groupChildren(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] {
        groupChildren { (child: NaiveView) -> String? in
            for viewType in viewTypes {
                let childType = type(of: child)
                if viewType == childType {
                    return String(describing: childType)
                }
            }
            return nil
        }
    }

    /// Groups the subviews whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(c × tags.count + c²) in the worst case.
    public func groupChildren(by tags: [Int]) -> [Int: [NaiveView]] {
        groupChildren { (child: NaiveView) -> Int? in
            for tag in tags {
                if tag == child.tag { return tag }
            }
            return nil
        }
    }
}
