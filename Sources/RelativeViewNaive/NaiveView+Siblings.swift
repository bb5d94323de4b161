// Sibling queries, transliterated from the original relative-view UIKit
// extension: a scan of the superview's `subviews`.

extension NaiveView {
    /// Returns `true` if this view and `view` are distinct and share the same
    /// superview.
    ///
    /// A view is never its own sibling, and a view without a superview has
    /// no siblings.
    ///
    /// - Complexity: O(1)
    public func isRelativeSibling(of view: NaiveView) -> Bool {
        guard self !== view, let a = self.superview, let b = view.superview, a === b else { return false }
        return true
    }

    /// Returns the first sibling in `subviews` order for which `matches`
    /// returns `true`, or `nil` if there is none (or no superview). The
    /// original has no such search; this one scans the superview's
    /// `subviews` as its sibling grouping does.
    ///
    /// - Complexity: O(s) calls to `matches`, where `s` is the number of
    ///   subviews of the superview.
    public func findFirstSibling(by matches: (NaiveView) -> Bool) -> NaiveView? {
        guard let superview = superview else { return nil }
        for sibling in superview.subviews where sibling !== self {
            if matches(sibling) { return sibling }
        }
        return nil
    }

    /// Returns the first sibling whose dynamic type is exactly one of
    /// `viewTypes`, or `nil` if there is none.
    ///
    /// - Complexity: O(s × viewTypes.count)
    public func findFirstSibling(by viewTypes: [NaiveView.Type]) -> NaiveView? {
        findFirstSibling { sibling in
            for viewType in viewTypes {
                if viewType == type(of: sibling) { return true }
            }
            return false
        }
    }

    /// Returns the first sibling whose `tag` is one of `tags`, or `nil` if
    /// there is none.
    ///
    /// - Complexity: O(s × tags.count)
    public func findFirstSibling(by tags: [Int]) -> NaiveView? {
        findFirstSibling { sibling in
            for tag in tags {
                if tag == sibling.tag { return true }
            }
            return false
        }
    }

    /// Groups the siblings of this view (the other subviews of its superview)
    /// by the key `groupKey` returns; siblings for which it returns `nil` are
    /// left out. Returns `[:]` if the view has no superview.
    ///
    /// Within each group, siblings are listed in `subviews` order.
    ///
    /// - Complexity: O(s) calls to `groupKey`, where `s` is the number of
    ///   subviews of the superview, plus O(s²) in the worst case (every
    ///   sibling in one group), because each append copies the group's
    ///   array, exactly as the original does.
    public func groupSiblings<Type: Hashable>(by groupKey: (NaiveView) -> Type?) -> [Type: [NaiveView]] {
        guard let superview = superview else { return [:] }
        var groups: [Type: [NaiveView]] = [:]
        for sibling in superview.subviews {
            guard sibling !== self else { continue }
            if let key = groupKey(sibling) {
                var siblings: [NaiveView] = groups[key] ?? []
                siblings.append(sibling)
                groups[key] = siblings
            }
        }
        return groups
    }

    /// Groups the siblings whose dynamic type is exactly one of `viewTypes`,
    /// keyed by `String(describing:)` of that type (e.g. `"Button"`).
    ///
    /// - Complexity: O(s × viewTypes.count + s²) in the worst case;
    ///   see the closure-based `groupSiblings(by:)`.
    public func groupSiblings(by viewTypes: [NaiveView.Type]) -> [String: [NaiveView]] {
        groupSiblings { (sibling: NaiveView) -> String? in
            for viewType in viewTypes {
                let siblingType = type(of: sibling)
                if viewType == siblingType {
                    return String(describing: siblingType)
                }
            }
            return nil
        }
    }

    /// Groups the siblings whose `tag` is one of `tags`, keyed by tag.
    ///
    /// - Complexity: O(s × tags.count + s²) in the worst case;
    ///   see the closure-based `groupSiblings(by:)`.
    public func groupSiblings(by tags: [Int]) -> [Int: [NaiveView]] {
        groupSiblings { (sibling: NaiveView) -> Int? in
            for tag in tags {
                if tag == sibling.tag { return tag }
            }
            return nil
        }
    }
}
