import RelativeViewCore

extension View {
    /// All the views below this one: its subviews first, then each subview's
    /// `recursiveSubviews` in turn (`subviews + subviews.flatMap { $0.recursiveSubviews }`).
    ///
    /// - Complexity: O(subtree size), iteratively; the naive core recurses and copies,
    ///   O(subtree size × depth), and overflows the stack on very deep trees.
    public var recursiveSubviews: [View] {
        guard let store = _store else { return [] }
        return store.views(store.tree.recursiveSubviews(of: _node))
    }

    /// The views of ``recursiveSubviews`` that are `T` or a subclass of it, in that order.
    ///
    /// - Parameter subclassOf: The class to match; subclasses match too (`as? T`).
    /// - Complexity: O(subtree size + registered types).
    public func findViews<T: View>(subclassOf: T.Type) -> [T] {
        guard let store = _store else { return [] }
        return store.tree.recursiveSubviews(of: _node, subclassOf: T.self).compactMap { store.view($0) as? T }
    }

    /// The labels among ``recursiveSubviews`` whose text is `text`.
    ///
    /// - Complexity: O(subtree size + registered types).
    public func findLabels(with text: String) -> [Label] {
        findViews(subclassOf: Label.self).filter { $0.text == text }
    }

    /// The buttons among ``recursiveSubviews`` whose title is `title`.
    ///
    /// - Complexity: O(subtree size + registered types).
    public func findButtons(with title: String) -> [Button] {
        findViews(subclassOf: Button.self).filter { $0._titleLabelText == title }
    }

    /// The image views among ``recursiveSubviews`` showing `image`.
    ///
    /// - Complexity: O(subtree size + registered types).
    public func findImageViews(with image: Image) -> [ImageView] {
        findViews(subclassOf: ImageView.self).filter { $0.image == image }
    }
}
