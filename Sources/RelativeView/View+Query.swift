/// CSS selectors and XPath on a view hierarchy: the views' type names (their classes' names,
/// `Label`, `Button`...) are the element names, tags are not attributes.
extension View {
    /// The views below this one (not itself) that match `selector`, in depth-first
    /// pre-order, each once: `element.querySelectorAll` (the selector is matched against the
    /// whole hierarchy, its results kept below this view).
    ///
    /// ```swift
    /// let labels = try window.select(CSSSelector("StackView > Label"))
    /// ```
    ///
    /// - Throws: `QueryError` if matching needs more work than the default budget.
    /// - Complexity: O(views visited), after an O(n) index on the first query of the
    ///   hierarchy as it is (a mutation makes the next query index it again).
    public func select(_ selector: CSSSelector) throws(QueryError) -> [View] {
        guard let store = _store else { return [] }  // a view alone: nothing below it
        return try store.tree.select(selector, from: _node).map(store.view)
    }

    /// The views `query` selects with this view as its context node, in depth-first
    /// pre-order (`.//Label`: the labels below this view; `ancestor::StackView`: its stack
    /// view ancestors).
    ///
    /// - Throws: `QueryError` if the expression is not a node-set, needs more work than
    ///   the default budget, or uses what XPath on a tree does not support yet.
    /// - Complexity: O(views visited), after an O(n) index on the first query of the
    ///   hierarchy as it is.
    public func select(_ query: XPath) throws(QueryError) -> [View] {
        guard let store = _store else {
            // A view alone: the tree of one node it would be in.
            var alone = ViewTree()
            let node = alone.makeNode(tag: _loneTag, type: TypeRegistry.shared.typeID(for: type(of: self)))
            return try alone.select(query, from: node).isEmpty ? [] : [self]
        }
        return try store.tree.select(query, from: _node).map(store.view)
    }

    /// The nodelist of a JSONPath query with this view as its root (`$`), as views: in the
    /// order RFC 9535 gives, a view as often as it is selected. A view with subviews is an
    /// object whose members are its subviews, named by their nodes' `key` attributes
    /// (`NodeAttribute.key`, which only a JSON document's tree has); a view without is a
    /// string of its value. So wildcards, descendant segments and filters serve any
    /// hierarchy:
    ///
    /// ```swift
    /// let leaves = try window.select(JSONPath("$..[?length(@) == 0]"))  // views with an empty value and no subviews
    /// ```
    ///
    /// - Throws: `QueryError` if the query needs more work than the default budget.
    /// - Complexity: O(views visited), after an O(n) index on the first query of the
    ///   hierarchy as it is.
    public func select(_ query: JSONPath) throws(QueryError) -> [View] {
        guard let store = _store else {
            var alone = ViewTree()
            let node = alone.makeNode(tag: _loneTag, type: TypeRegistry.shared.typeID(for: type(of: self)))
            return try alone.select(query, root: node).map { _ in self }
        }
        return try store.tree.select(query, root: _node).map(store.view)
    }
}
