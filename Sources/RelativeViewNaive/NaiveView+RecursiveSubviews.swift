// `recursiveSubviews` and the `find…` helpers, transliterated literally from
// the Japanese article the original port follows.

extension NaiveView {
    /// All descendants of this view: first all direct `subviews`, then the
    /// `recursiveSubviews` of each subview in turn.
    ///
    /// This is *not* pre-order: for a root with subviews `[a, b]`, where `a`
    /// has `[a1]`, `a1` has `[a11]` and `b` has `[b1]`, the result is
    /// `[a, b, a1, a11, b1]`. The order is kept as the article defines it.
    ///
    /// - Complexity: O(n × depth), where `n` is the number of descendants,
    ///   since every level re-copies the arrays built below it.
    public var recursiveSubviews: [NaiveView] {
        subviews + subviews.flatMap { $0.recursiveSubviews }
    }

    /// All descendants that are instances of `T` or of a subclass of `T`,
    /// in `recursiveSubviews` order.
    ///
    /// - Complexity: O(n × depth); see ``recursiveSubviews``.
    public func findViews<T: NaiveView>(subclassOf: T.Type) -> [T] {
        recursiveSubviews.compactMap { $0 as? T }
    }

    /// All descendant labels whose `text` equals `text`, in
    /// `recursiveSubviews` order.
    ///
    /// - Complexity: O(n × depth); see ``recursiveSubviews``.
    public func findLabels(with text: String) -> [NaiveView.Label] {
        findViews(subclassOf: NaiveView.Label.self).filter { $0.text == text }
    }

    /// All descendant buttons whose title label's `text` equals `title`, in
    /// `recursiveSubviews` order.
    ///
    /// - Complexity: O(n × depth); see ``recursiveSubviews``.
    public func findButtons(with title: String) -> [NaiveView.Button] {
        findViews(subclassOf: NaiveView.Button.self).filter { $0.titleLabel?.text == title }
    }

    /// All descendant image views whose `image` equals `image`, in
    /// `recursiveSubviews` order.
    ///
    /// - Complexity: O(n × depth); see ``recursiveSubviews``.
    public func findImageViews(with image: NaiveView.Image) -> [NaiveView.ImageView] {
        findViews(subclassOf: NaiveView.ImageView.self).filter { $0.image == image }
    }
}
