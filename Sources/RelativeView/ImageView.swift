import Foundation

/// An image, identified by its name, like `UIImage(named:)`. Two images are equal when their names are.
public struct Image: Hashable, Sendable {
    /// The image's name.
    ///
    /// - Complexity: O(1)
    public let name: String

    /// The image called `name`.
    ///
    /// - Complexity: O(1)
    public init(named name: String) {
        self.name = name
    }
}

/// A view that shows an image, like `UIImageView`.
open class ImageView: View {
    /// The image shown; `nil` by default.
    ///
    /// - Complexity: O(1)
    open var image: Image?

    /// An image view with no image.
    ///
    /// - Complexity: O(1)
    public override init() {
        super.init()
    }

    /// An image view with a zero frame showing `image`.
    ///
    /// - Complexity: O(1)
    public init(image: Image?) {
        self.image = image
        super.init()
    }

    /// An image view with the given frame and no image.
    ///
    /// - Complexity: O(1)
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }
}
