/// A view that shows text, like `UILabel`.
open class Label: View {
    /// The text; `nil` by default.
    ///
    /// - Complexity: O(1)
    open var text: String?
}
