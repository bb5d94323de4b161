/// A view that responds to user interaction, like `UIControl`.
open class Control: View {}

/// A button with a title, like `UIButton`.
open class Button: Control {
    /// The label that shows the title. It belongs to the button and is not a subview.
    ///
    /// - Complexity: O(1)
    public let titleLabel: Label? = Label()

    /// The button's title; its ``titleLabel`` shows it.
    ///
    /// - Complexity: O(1)
    open var title: String? {
        didSet { titleLabel?.text = title }
    }

    /// Sets the title, as `UIButton.setTitle(_:for:)` does for the normal state.
    ///
    /// - Complexity: O(1)
    public func setTitle(_ title: String?) {
        self.title = title
    }
}

/// An editable single line of text, like `UITextField`.
open class TextField: Control {
    /// The text; `nil` by default.
    ///
    /// - Complexity: O(1)
    open var text: String?
}

/// A value picked from a continuous range, like `UISlider`.
open class Slider: Control {
    /// The current value; `0` by default.
    ///
    /// - Complexity: O(1)
    open var value: Float = 0
}
