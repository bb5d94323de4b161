import RelativeViewCore

// The facade's searches and groupings (`View+Relatives.swift`): the core's, with the
// nodes made into views.

extension ViewStore {
    /// The first of the `relation` of `node` whose view `matches`.
    func first(_ relation: Relation, of node: NodeID, where matches: (View) -> Bool) -> View? {
        // A copy of the tree: `matches` may change the store's (see `group(_:of:by:)`).
        let tree = self.tree
        return tree.first(relation, of: node) { matches(view($0)) }.map(view)
    }

    /// The first of the `relation` of `node` whose class is exactly one of `viewTypes`.
    func first(_ relation: Relation, of node: NodeID, by viewTypes: [View.Type]) -> View? {
        tree._first(relation, of: node, matching: typeKeys(viewTypes)).map(view)
    }

    /// The first of the `relation` of `node` whose tag is one of `tags`.
    func first(_ relation: Relation, of node: NodeID, byTags tags: [Int]) -> View? {
        tree.first(relation, of: node, withTags: tags).map(view)
    }

    /// The `relation` of `node` whose class is exactly one of `viewTypes`, grouped by class name.
    func group(_ relation: Relation, of node: NodeID, by viewTypes: [View.Type]) -> [String: [View]] {
        views(tree._slots(relation, of: node, matching: typeKeys(viewTypes)))
    }

    /// The `relation` of `node` whose tag is one of `tags`, grouped by tag.
    func group(_ relation: Relation, of node: NodeID, byTags tags: [Int]) -> [Int: [View]] {
        views(tree._slots(relation, of: node, byTags: tags))
    }

    /// Groups the `relation` of `node` under the keys `groupKey` gives their views (`nil`
    /// leaves one out), each group in the relation's order: one pass from the index's slots
    /// to the views, with no answer in node ids in between.
    @inlinable
    func group<Key: Hashable>(_ relation: Relation, of node: NodeID, by groupKey: (View) -> Key?) -> [Key: [View]] {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.touchAhead) { batch in
            // Closure literals over one struct, not nested functions: a nested function that
            // captures a variable gets dynamic exclusivity checks on every use.
            var grouping = _Grouping<Key>(batch: batch)
            // The walk reads a copy of the tree: `groupKey` may change the store's tree
            // (add or remove views), which then copies its storage before the change
            // instead of changing the columns under the walk.
            let tree = self.tree
            tree._walk(relation, of: node) { x, _ in
                grouping.visit(x, self, groupKey)
                return true
            }
            grouping.flush(self, groupKey)
            return grouping.groups
        }
    }
}
