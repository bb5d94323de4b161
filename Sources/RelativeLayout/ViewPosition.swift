import Foundation
import RelativeView

/// A point on a view, in that view's own (bounds) coordinate space, rounded to the pixel
/// grid: one of its nine anchors (`a.topLeft`, `a.middle`, ...), possibly moved by offsets
/// (`10.horizontalOffset + b.left`).
///
/// Aligning one position to another (`a.right --> b.left`, or ``align(to:xOffset:yOffset:)``)
/// moves the first view, by its frame (so its center moves too), never resizing it, until the
/// two points coincide; the target is converted into the moved view's superview space through
/// the two views' lowest common ancestor, so the views can be anywhere in one tree, and the
/// moved view's frame origin lands on the pixel grid.
public struct ViewPosition {
    /// The nine anchors of a rectangle.
    public enum Anchor: Hashable, Sendable, CaseIterable {
        /// The top-left corner.
        case topLeft
        /// The middle of the top edge.
        case top
        /// The top-right corner.
        case topRight
        /// The middle of the left edge.
        case left
        /// The center.
        case middle
        /// The middle of the right edge.
        case right
        /// The bottom-left corner.
        case bottomLeft
        /// The middle of the bottom edge.
        case bottom
        /// The bottom-right corner.
        case bottomRight

        /// This anchor's point on `rect`.
        ///
        /// - Complexity: O(1)
        public func anchorPoint(onRect rect: CGRect) -> CGPoint {
            switch self {
            case .topLeft: rect.origin
            case .top: CGPoint(x: rect.midX, y: rect.minY)
            case .topRight: CGPoint(x: rect.maxX, y: rect.minY)
            case .left: CGPoint(x: rect.minX, y: rect.midY)
            case .middle: CGPoint(x: rect.midX, y: rect.midY)
            case .right: CGPoint(x: rect.maxX, y: rect.midY)
            case .bottomLeft: CGPoint(x: rect.minX, y: rect.maxY)
            case .bottom: CGPoint(x: rect.midX, y: rect.maxY)
            case .bottomRight: CGPoint(x: rect.maxX, y: rect.maxY)
            }
        }
    }

    /// An anchor of the superview of the view being aligned, with an offset:
    /// `10.verticalOffset + .top`.
    public struct OffsetAnchor: Hashable, Sendable {
        /// The displacement from the anchor.
        ///
        /// - Complexity: O(1)
        public var offset: Offset
        /// The superview's anchor.
        ///
        /// - Complexity: O(1)
        public var anchor: Anchor

        /// `anchor` of the superview, moved by `offset`.
        ///
        /// - Complexity: O(1)
        public init(offset: Offset, anchor: Anchor) {
            self.offset = offset
            self.anchor = anchor
        }
    }

    /// The view the position is on.
    ///
    /// - Complexity: O(1)
    public let view: View
    /// The point, in the view's bounds space, on the pixel grid of the view's tree.
    ///
    /// - Complexity: O(1)
    public let anchorPoint: CGPoint
    /// The view's bounds when the position was made: a position is stale once they change.
    let originalBounds: CGRect
    /// The pixel grid of the view's tree when the position was made (finding it walks to the
    /// root, so a position finds it once, for its offsets and its alignment too).
    let rounder: PixelRounder

    /// The anchor `anchor` of `view`. For a `Label` with a font, the vertical
    /// anchors sit on the text's cap-height line (top) and baseline (bottom), so that
    /// distances between labels are measured as designers measure them.
    ///
    /// - Complexity: O(depth of `view`), to find the screen scale of its tree.
    public init(view: View, anchor: Anchor) {
        let bounds = view.bounds
        let rounder = PixelRounder(for: view)
        var rect = bounds
        if let label = view as? Label, let font = label.font {
            rect = bounds.insetBy(capAndBaselineOf: font, with: rounder)
        }
        self.init(view: view, rounded: rounder.roundToPixel(anchor.anchorPoint(onRect: rect)), bounds: bounds, rounder: rounder)
    }

    /// The point `position` of `view`'s bounds space, rounded to the pixel grid.
    ///
    /// - Complexity: O(depth of `view`), to find the screen scale of its tree.
    public init(view: View, position: CGPoint) {
        let rounder = PixelRounder(for: view)
        self.init(view: view, rounded: rounder.roundToPixel(position), bounds: view.bounds, rounder: rounder)
    }

    init(view: View, rounded: CGPoint, bounds: CGRect, rounder: PixelRounder) {
        self.view = view
        self.anchorPoint = rounded
        self.originalBounds = bounds
        self.rounder = rounder
    }

    /// This position moved by `offset` (and rounded to the pixel grid again).
    ///
    /// - Complexity: O(1)
    public func offset(by offset: Offset) -> ViewPosition {
        let moved = CGPoint(x: anchorPoint.x + offset.horizontal, y: anchorPoint.y + offset.vertical)
        return ViewPosition(view: view, rounded: rounder.roundToPixel(moved), bounds: originalBounds, rounder: rounder)
    }

    // MARK: Aligning

    /// Moves this position's view so that this position lands on `other`, plus the offsets;
    /// the view's frame origin is rounded to the pixel grid, and its size does not change.
    ///
    /// Misuse goes through ``ErrorHandler`` and leaves the view where it is: the view has no
    /// superview, the two views are in different trees, or either view's bounds changed
    /// since its position was made.
    /// - Complexity: O(length of the path between this view's superview and `other`'s view
    ///   in the tree).
    public func align(to other: ViewPosition, xOffset: CGFloat = 0, yOffset: CGFloat = 0) {
        guard isCurrent(other, "align", "align to") else { return }
        guard let superview = view.superview else {
            return ErrorHandler.assertionFailure("Attempting to align view but no superview exists! \(view)")
        }
        guard superview.isInSameTree(as: other.view) else {
            return ErrorHandler.assertionFailure("Attempting to align \(view) to \(other.view), which is in another view tree")
        }
        let target = other.view.convert(other.anchorPoint, to: superview)
        let frame = view.frame
        let bounds = view.bounds
        // The frame origin that puts `anchorPoint` (a point of the bounds space) on the target.
        let origin = CGPoint(x: target.x + xOffset - (anchorPoint.x - bounds.minX),
                             y: target.y + yOffset - (anchorPoint.y - bounds.minY))
        view.frame = CGRect(origin: rounder.roundToPixel(origin), size: frame.size)
    }

    /// Aligns this position to `anchor` of its view's superview, plus the offsets.
    ///
    /// A view without a superview is a misuse (through ``ErrorHandler``; nothing moves).
    /// - Complexity: O(depth), to find the screen scale.
    public func align(toSuperviewAnchor anchor: Anchor, xOffset: CGFloat = 0, yOffset: CGFloat = 0) {
        guard let superview = view.superview else {
            return ErrorHandler.assertionFailure("Trying to align to \(view)'s superview but no superview exists")
        }
        align(to: ViewPosition(view: superview, anchor: anchor), xOffset: xOffset, yOffset: yOffset)
    }

    // MARK: Measuring

    /// The horizontal and vertical distances from this position to `other` (plus the
    /// offsets), as a size whose width and height are never negative.
    ///
    /// Misuse goes through ``ErrorHandler`` and measures `.zero`: a bounds changed since its
    /// position was made, this view has no superview (as in Relativity), or the views are in
    /// different trees. A point off the pixel grid (a view that was not laid out by this
    /// library, or sits between pixels) is reported too, and still measured.
    /// - Complexity: O(length of the path between the two views in the tree).
    public func measureDistance(to other: ViewPosition, xOffset: CGFloat = 0, yOffset: CGFloat = 0) -> CGSize {
        guard isCurrent(other, "measure", "measure to") else { return .zero }
        guard view.superview != nil else {
            ErrorHandler.assertionFailure("Attempting to measure view but no superview exists! \(view)")
            return .zero
        }
        guard view.isInSameTree(as: other.view) else {
            ErrorHandler.assertionFailure("Attempting to measure from \(view) to \(other.view), which is in another view tree")
            return .zero
        }
        // Both points in the space of this view's superview: distances do not depend on the
        // space, as there are no transforms. One check per point, as Relativity makes them.
        let space = view.superview ?? view
        let here = view.convert(anchorPoint, to: space)
        let there = other.view.convert(other.anchorPoint, to: space)
        ErrorHandler.assert(rounder.isRoundedToPixel(here), "Measuring distance with a ViewPosition whose origin is not pixel aligned!")
        ErrorHandler.assert(rounder.isRoundedToPixel(there), "Measuring distance with a ViewPosition whose origin is not pixel aligned!")
        return CGSize(width: abs(there.x - here.x + xOffset), height: abs(there.y - here.y + yOffset))
    }

    /// The distance from this position to `anchor` of its view's superview, plus the offsets.
    ///
    /// A view without a superview is a misuse (through ``ErrorHandler``; measures `.zero`).
    /// - Complexity: O(depth), to find the screen scale.
    public func measureDistance(toSuperviewAnchor anchor: Anchor, xOffset: CGFloat = 0, yOffset: CGFloat = 0) -> CGSize {
        guard let superview = view.superview else {
            ErrorHandler.assertionFailure("Trying to measure to \(view)'s superview but no superview exists")
            return .zero
        }
        return measureDistance(to: ViewPosition(view: superview, anchor: anchor), xOffset: xOffset, yOffset: yOffset)
    }

    /// Whether both positions' views still have the bounds the positions were made with (the
    /// messages are Relativity's: "Bounds of view to `verb` have changed ...", then to `otherVerb`).
    private func isCurrent(_ other: ViewPosition, _ verb: String, _ otherVerb: String) -> Bool {
        guard view.bounds == originalBounds else {
            ErrorHandler.assertionFailure("Bounds of view to \(verb) have changed since ViewPosition was created! \(Self.text(originalBounds)) -> \(Self.text(view.bounds))")
            return false
        }
        guard other.view.bounds == other.originalBounds else {
            ErrorHandler.assertionFailure("Bounds of view to \(otherVerb) have changed since ViewPosition was created! \(Self.text(other.originalBounds)) -> \(Self.text(other.view.bounds))")
            return false
        }
        return true
    }

    /// A rectangle as UIKit prints a `CGRect`, `(x, y, width, height)`, so that messages read
    /// as Relativity's do (Foundation on Linux prints `CGRect(origin: ..., size: ...)`).
    static func text(_ rect: CGRect) -> String {
        "(\(Double(rect.origin.x)), \(Double(rect.origin.y)), \(Double(rect.size.width)), \(Double(rect.size.height)))"
    }
}

extension View {
    /// The top-left corner, as a position to align or measure.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var topLeft: ViewPosition { ViewPosition(view: self, anchor: .topLeft) }
    /// The middle of the top edge (a label's cap-height line).
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var top: ViewPosition { ViewPosition(view: self, anchor: .top) }
    /// The top-right corner.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var topRight: ViewPosition { ViewPosition(view: self, anchor: .topRight) }
    /// The middle of the left edge.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var left: ViewPosition { ViewPosition(view: self, anchor: .left) }
    /// The center.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var middle: ViewPosition { ViewPosition(view: self, anchor: .middle) }
    /// The middle of the right edge.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var right: ViewPosition { ViewPosition(view: self, anchor: .right) }
    /// The bottom-left corner.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var bottomLeft: ViewPosition { ViewPosition(view: self, anchor: .bottomLeft) }
    /// The middle of the bottom edge (a label's baseline).
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var bottom: ViewPosition { ViewPosition(view: self, anchor: .bottom) }
    /// The bottom-right corner.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var bottomRight: ViewPosition { ViewPosition(view: self, anchor: .bottomRight) }
}

extension Label {
    /// The left end of the cap-height line, given the font (Relativity 3's `capLeft`); the
    /// top-left corner without a font. The same position as ``View/topLeft`` on a label here,
    /// whose top anchors are on the cap-height line as in Relativity 0.9.5.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var capLeft: ViewPosition { ViewPosition(view: self, anchor: .topLeft) }
    /// The middle of the cap-height line, given the font (Relativity 3's `cap`); the middle of
    /// the top edge without a font.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var cap: ViewPosition { ViewPosition(view: self, anchor: .top) }
    /// The right end of the cap-height line, given the font (Relativity 3's `capRight`); the
    /// top-right corner without a font.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var capRight: ViewPosition { ViewPosition(view: self, anchor: .topRight) }
    /// The left end of the baseline, given the font (Relativity 3's `baselineLeft`); the
    /// bottom-left corner without a font.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var baselineLeft: ViewPosition { ViewPosition(view: self, anchor: .bottomLeft) }
    /// The middle of the baseline, given the font (Relativity 3's `baseline`); the middle of
    /// the bottom edge without a font.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var baseline: ViewPosition { ViewPosition(view: self, anchor: .bottom) }
    /// The right end of the baseline, given the font (Relativity 3's `baselineRight`); the
    /// bottom-right corner without a font.
    ///
    /// - Complexity: O(depth), to find the screen scale.
    public var baselineRight: ViewPosition { ViewPosition(view: self, anchor: .bottomRight) }
}
