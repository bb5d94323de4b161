import RelativeViewCore

/// A view's content, kept in its tree as a document's nodes keep theirs: named attributes
/// (in the order they were set) and a node value (a text of the view's own; `value` is a slider's). They travel with the
/// view when it moves between trees, and a removed view's are gone with it.
extension View {
    /// A view with the named `attributes`, in their order (a name given twice keeps its
    /// last value): an element of a document made by hand.
    ///
    /// - Complexity: O(attributes' lengths)
    public convenience init(attributes: KeyValuePairs<String, String>) {
        self.init()
        for (name, value) in attributes { setAttribute(value, named: name) }
    }

    /// The value of the attribute named `name`, or `nil`.
    ///
    /// - Complexity: O(the view's attributes)
    public final func attribute(named name: String) -> String? {
        guard let store = _store else { return nil }
        return store.tree.attribute(named: name, of: _node)
    }

    /// Sets the attribute named `name` to `value` (where it is, or after the others), or
    /// with `nil` removes it.
    ///
    /// - Complexity: O(the view's attributes + value's length) amortized.
    public final func setAttribute(_ value: String?, named name: String) {
        if value == nil && _store == nil { return }
        let store = _ensureStore()
        store.tree.setAttribute(named: name, value, of: _node)
    }

    /// The view's attributes with their values, in their order.
    ///
    /// - Complexity: O(the attributes' lengths)
    public final var namedAttributes: [(name: String, value: String)] {
        guard let store = _store else { return [] }
        return store.tree.namedAttributes(of: _node)
    }

    /// A text of the view's own (the DOM's name; its node's `ViewTree.value(of:)`), or
    /// `nil`.
    ///
    /// - Complexity: O(length)
    public final var nodeValue: String? {
        get {
            guard let store = _store else { return nil }
            return store.tree.value(of: _node)
        }
        set {
            if newValue == nil && _store == nil { return }
            let store = _ensureStore()
            store.tree.setValue(newValue, of: _node)
        }
    }

    /// The values of this view and of its subviews' subtrees, in depth-first pre-order,
    /// joined: the text a document's element holds when its text nodes are views.
    ///
    /// - Complexity: O(size of the subtree + the text's length)
    public final var textContent: String {
        guard let store = _store else { return "" }
        let tree = store.tree
        var text = tree.value(of: _node) ?? ""
        for node in tree.descendants(of: _node) { text += tree.value(of: node) ?? "" }
        return text
    }
}
