// Stand-ins for the stock UIKit view classes, nested in `NaiveView` so that
// `String(describing: NaiveView.Button.self) == "Button"`, the same group key
// the fast facade's top-level classes produce.

extension NaiveView {
    /// An image, identified by name (a stand-in for `UIImage`).
    ///
    /// - Complexity: O(1) to create; hashing and equality are O(name length).
    public struct Image: Hashable, Sendable {
        /// The image's name.
        ///
        /// - Complexity: O(1)
        public let name: String

        /// Creates an image with the given name, like `UIImage(named:)`.
        ///
        /// - Complexity: O(1)
        public init(named name: String) {
            self.name = name
        }
    }

    /// A stand-in for `UIControl`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class Control: NaiveView {
        /// Creates a detached control.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }

    /// A stand-in for `UIButton`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class Button: Control {
        /// The label that displays the title. It belongs to the button but is
        /// not inserted into the view tree.
        private let ownedTitleLabel = Label()

        /// The button's title. Setting it updates `titleLabel?.text`.
        ///
        /// - Complexity: O(1)
        open var title: String? {
            didSet { ownedTitleLabel.text = title }
        }

        /// Creates a detached button with no title.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }

        /// Sets the button's title, like `UIButton.setTitle(_:for:)`.
        ///
        /// - Complexity: O(1)
        public func setTitle(_ title: String?) {
            self.title = title
        }

        /// The label showing the button's title, as `UIButton.titleLabel`.
        /// It is owned by the button and is *not* one of its `subviews`; its
        /// `text` follows `title`.
        ///
        /// - Complexity: O(1)
        public var titleLabel: Label? {
            ownedTitleLabel
        }
    }

    /// A stand-in for `UILabel`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class Label: NaiveView {
        /// The text the label displays.
        ///
        /// - Complexity: O(1)
        open var text: String?

        /// Creates a detached label with no text.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }

    /// A stand-in for `UIImageView`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class ImageView: NaiveView {
        /// The image the view displays.
        ///
        /// - Complexity: O(1)
        open var image: Image?

        /// Creates a detached image view with no image.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }

        /// Creates a detached image view showing `image`.
        ///
        /// - Complexity: O(1)
        public init(image: Image?) {
            self.image = image
            super.init()
        }
    }

    /// A stand-in for `UITextField`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class TextField: Control {
        /// The text in the field.
        ///
        /// - Complexity: O(1)
        open var text: String?

        /// Creates a detached, empty text field.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }

    /// A stand-in for `UISlider`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class Slider: Control {
        /// The slider's current value. Defaults to `0`.
        ///
        /// - Complexity: O(1)
        open var value: Float = 0

        /// Creates a detached slider with value `0`.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }

    /// A stand-in for `UIScrollView`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class ScrollView: NaiveView {
        /// Creates a detached scroll view.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }

    /// A stand-in for `UITableView`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class TableView: ScrollView {
        /// Creates a detached table view.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }

    /// A stand-in for `UITableViewCell`.
    ///
    /// - Complexity: Same as ``NaiveView``.
    open class TableViewCell: NaiveView {
        /// Creates a detached table view cell.
        ///
        /// - Complexity: O(1)
        public override init() {
            super.init()
        }
    }
}
