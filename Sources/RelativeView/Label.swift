import Foundation

/// A view that shows text, like `UILabel`.
open class Label: View {
    /// The text; `nil` by default.
    ///
    /// - Complexity: O(1)
    open var text: String?

    /// The font's metrics; `nil` by default. Layout (RelativeLayout) puts a label's top
    /// anchors on the font's cap-height line and its bottom anchors on the baseline; without
    /// a font they are the bounds' edges.
    ///
    /// - Complexity: O(1)
    open var font: Font?
}

/// The vertical metrics of a font, in points, as `UIFont` reports them: what layout needs to
/// place a label's cap-height line and baseline. There is no text rendering here, so a font
/// is only these numbers.
public struct Font: Hashable, Sendable {
    /// The font's size (its em), in points.
    ///
    /// - Complexity: O(1)
    public var pointSize: CGFloat
    /// The distance from the baseline up to the top of the line's tallest glyphs (positive).
    ///
    /// - Complexity: O(1)
    public var ascender: CGFloat
    /// The distance from the baseline down to the bottom of the line (negative, as in UIKit).
    ///
    /// - Complexity: O(1)
    public var descender: CGFloat
    /// The height of a capital letter above the baseline.
    ///
    /// - Complexity: O(1)
    public var capHeight: CGFloat
    /// The height of a line of text.
    ///
    /// - Complexity: O(1)
    public var lineHeight: CGFloat

    /// A font with the given metrics; `lineHeight` defaults to `ascender - descender`.
    ///
    /// Traps if `capHeight` exceeds `ascender`, or `descender` is positive.
    /// - Complexity: O(1)
    public init(pointSize: CGFloat, ascender: CGFloat, descender: CGFloat, capHeight: CGFloat, lineHeight: CGFloat? = nil) {
        precondition(descender <= 0, "a font's descender is zero or negative (below the baseline), not \(descender)")
        precondition(capHeight <= ascender, "a font's cap height (\(capHeight)) cannot exceed its ascender (\(ascender))")
        self.pointSize = pointSize
        self.ascender = ascender
        self.descender = descender
        self.capHeight = capHeight
        self.lineHeight = lineHeight ?? ascender - descender
    }
}
