/// A view that responds to user interaction, like `UIControl`.
open class Control: View {}

/// A button with a title, like `UIButton`.
open class Button: Control {
    /// The label that shows the title, made on first use (as UIKit makes it). It belongs to
    /// the button and is not a subview.
    ///
    /// - Complexity: O(1)
    public var titleLabel: Label? {
        if let label = _titleLabel { return label }
        let label = Label()
        _titleLabel = label
        return label
    }

    /// The title label once made: a button that never shows a title spends no label on it
    /// (a large tree of buttons would otherwise hold a second view per button).
    private var _titleLabel: Label?

    /// The text of the title label, without making the label: `nil` until it is made.
    final var _titleLabelText: String? { _titleLabel?.text }

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
