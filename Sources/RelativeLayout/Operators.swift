import Foundation
import RelativeView

// The layout operators, with Relativity's precedences. `-->` and `<--` bind loosest, so the
// whole right (or left) side is a position. `|--|` shares the precedence of `+` and `-` and
// associates left, as in Relativity: `a.topRight |--| c.bottomLeft + -16.horizontalOffset` is
// the measured size plus the offset (`CGSize + Offset`), so the same code gives the same
// sizes here and there.

infix operator --> : AssignmentPrecedence
infix operator <-- : AssignmentPrecedence
infix operator |--| : AdditionPrecedence
infix operator <> : AdditionPrecedence
postfix operator ~

// MARK: Aligning

/// Moves the view of `lhs` so that `lhs` lands on `rhs`.
///
/// - Complexity: as ``ViewPosition/align(to:xOffset:yOffset:)``.
public func --> (lhs: ViewPosition, rhs: ViewPosition) {
    lhs.align(to: rhs)
}

/// Moves the view of `lhs` so that `lhs` lands on the anchor `rhs` of its superview.
///
/// - Complexity: as ``ViewPosition/align(toSuperviewAnchor:xOffset:yOffset:)``.
public func --> (lhs: ViewPosition, rhs: ViewPosition.Anchor) {
    lhs.align(toSuperviewAnchor: rhs)
}

/// Moves the view of `lhs` so that `lhs` lands on an anchor of its superview plus an offset.
///
/// - Complexity: as ``ViewPosition/align(toSuperviewAnchor:xOffset:yOffset:)``.
public func --> (lhs: ViewPosition, rhs: ViewPosition.OffsetAnchor) {
    lhs.align(toSuperviewAnchor: rhs.anchor, xOffset: rhs.offset.horizontal, yOffset: rhs.offset.vertical)
}

/// Moves the view of `rhs` so that `rhs` lands on `lhs`.
///
/// - Complexity: as ``ViewPosition/align(to:xOffset:yOffset:)``.
public func <-- (lhs: ViewPosition, rhs: ViewPosition) {
    rhs --> lhs
}

/// Moves the view of `rhs` so that `rhs` lands on the anchor `lhs` of its superview.
///
/// - Complexity: as ``ViewPosition/align(toSuperviewAnchor:xOffset:yOffset:)``.
public func <-- (lhs: ViewPosition.Anchor, rhs: ViewPosition) {
    rhs --> lhs
}

/// Moves the view of `rhs` so that `rhs` lands on an anchor of its superview plus an offset.
///
/// - Complexity: as ``ViewPosition/align(toSuperviewAnchor:xOffset:yOffset:)``.
public func <-- (lhs: ViewPosition.OffsetAnchor, rhs: ViewPosition) {
    rhs --> lhs
}

// MARK: Measuring

/// The distance between two positions, as a size with non-negative width and height.
///
/// - Complexity: as ``ViewPosition/measureDistance(to:xOffset:yOffset:)``.
public func |--| (lhs: ViewPosition, rhs: ViewPosition) -> CGSize {
    lhs.measureDistance(to: rhs)
}

/// The distance from `lhs` to the anchor `rhs` of its view's superview.
///
/// - Complexity: as ``ViewPosition/measureDistance(toSuperviewAnchor:xOffset:yOffset:)``.
public func |--| (lhs: ViewPosition, rhs: ViewPosition.Anchor) -> CGSize {
    lhs.measureDistance(toSuperviewAnchor: rhs)
}

/// The distance from the anchor `lhs` of the superview of `rhs`'s view to `rhs`.
///
/// - Complexity: as ``ViewPosition/measureDistance(toSuperviewAnchor:xOffset:yOffset:)``.
public func |--| (lhs: ViewPosition.Anchor, rhs: ViewPosition) -> CGSize {
    rhs |--| lhs
}

/// The distance from `lhs` to an anchor of its view's superview plus an offset.
///
/// - Complexity: as ``ViewPosition/measureDistance(toSuperviewAnchor:xOffset:yOffset:)``.
public func |--| (lhs: ViewPosition, rhs: ViewPosition.OffsetAnchor) -> CGSize {
    lhs.measureDistance(toSuperviewAnchor: rhs.anchor, xOffset: rhs.offset.horizontal, yOffset: rhs.offset.vertical)
}

/// The distance from an anchor of the superview of `rhs`'s view, plus an offset, to `rhs`.
///
/// - Complexity: as ``ViewPosition/measureDistance(toSuperviewAnchor:xOffset:yOffset:)``.
public func |--| (lhs: ViewPosition.OffsetAnchor, rhs: ViewPosition) -> CGSize {
    rhs |--| lhs
}

// MARK: Offsets on positions and anchors

/// A new position on `lhs`'s view, `rhs` away from `lhs`, as Relativity makes it: rounded
/// to the pixel grid of the view's scale now, and recording the view's bounds now (so a
/// position whose view was resized since it was made is good again once moved, where
/// ``ViewPosition/offset(by:)`` keeps the original bounds and reports the resize).
///
/// - Complexity: as ``ViewPosition/init(view:position:)``.
public func + (lhs: ViewPosition, rhs: Offset) -> ViewPosition {
    ViewPosition(view: lhs.view, position: CGPoint(x: lhs.anchorPoint.x + rhs.horizontal, y: lhs.anchorPoint.y + rhs.vertical))
}

/// `rhs + lhs` (offsets commute).
///
/// - Complexity: as ``ViewPosition/init(view:position:)``.
public func + (lhs: Offset, rhs: ViewPosition) -> ViewPosition {
    rhs + lhs
}

/// A new position on `lhs`'s view, `rhs` back from `lhs`, made as `+` makes it.
///
/// - Complexity: as ``ViewPosition/init(view:position:)``.
public func - (lhs: ViewPosition, rhs: Offset) -> ViewPosition {
    ViewPosition(view: lhs.view, position: CGPoint(x: lhs.anchorPoint.x - rhs.horizontal, y: lhs.anchorPoint.y - rhs.vertical))
}

/// The superview anchor `lhs` moved by `rhs`.
///
/// - Complexity: O(1)
public func + (lhs: ViewPosition.Anchor, rhs: Offset) -> ViewPosition.OffsetAnchor {
    ViewPosition.OffsetAnchor(offset: rhs, anchor: lhs)
}

/// The superview anchor `rhs` moved by `lhs`.
///
/// - Complexity: O(1)
public func + (lhs: Offset, rhs: ViewPosition.Anchor) -> ViewPosition.OffsetAnchor {
    ViewPosition.OffsetAnchor(offset: lhs, anchor: rhs)
}

/// The superview anchor `lhs` moved by the opposite of `rhs`.
///
/// - Complexity: O(1)
public func - (lhs: ViewPosition.Anchor, rhs: Offset) -> ViewPosition.OffsetAnchor {
    ViewPosition.OffsetAnchor(offset: -rhs, anchor: lhs)
}

/// `lhs` moved further by `rhs`.
///
/// - Complexity: O(1)
public func + (lhs: ViewPosition.OffsetAnchor, rhs: Offset) -> ViewPosition.OffsetAnchor {
    ViewPosition.OffsetAnchor(offset: lhs.offset + rhs, anchor: lhs.anchor)
}

/// `rhs` moved further by `lhs`.
///
/// - Complexity: O(1)
public func + (lhs: Offset, rhs: ViewPosition.OffsetAnchor) -> ViewPosition.OffsetAnchor {
    ViewPosition.OffsetAnchor(offset: lhs + rhs.offset, anchor: rhs.anchor)
}

/// `lhs` moved back by `rhs`.
///
/// - Complexity: O(1)
public func - (lhs: ViewPosition.OffsetAnchor, rhs: Offset) -> ViewPosition.OffsetAnchor {
    ViewPosition.OffsetAnchor(offset: lhs.offset - rhs, anchor: lhs.anchor)
}

// MARK: Distribution

/// Two items of a distribution, side by side.
///
/// - Complexity: O(1)
public func <> (lhs: DistributionItem, rhs: DistributionItem) -> [DistributionItem] { [lhs, rhs] }

/// A distribution with `rhs` after its last item.
///
/// - Complexity: O(1) amortized (the array is appended to in place when unshared).
public func <> (lhs: [DistributionItem], rhs: DistributionItem) -> [DistributionItem] {
    var items = lhs
    items.append(rhs)
    return items
}

/// A distribution with the view `rhs` after its last item.
///
/// - Complexity: O(1) amortized.
public func <> (lhs: [DistributionItem], rhs: View) -> [DistributionItem] { lhs <> .view(rhs) }

/// A distribution with a fixed spacer of `rhs` points after its last item.
///
/// - Complexity: O(1) amortized.
public func <> (lhs: [DistributionItem], rhs: some CGFloatConvertible) -> [DistributionItem] { lhs <> .fixed(rhs.asCGFloat) }

/// The view `lhs` followed by `rhs`.
///
/// - Complexity: O(1)
public func <> (lhs: View, rhs: DistributionItem) -> [DistributionItem] { [.view(lhs), rhs] }

/// `lhs` followed by the view `rhs`.
///
/// - Complexity: O(1)
public func <> (lhs: DistributionItem, rhs: View) -> [DistributionItem] { [lhs, .view(rhs)] }

/// Two views side by side, with no space between them.
///
/// - Complexity: O(1)
public func <> (lhs: View, rhs: View) -> [DistributionItem] { [.view(lhs), .view(rhs)] }

/// A fixed spacer of `lhs` points followed by `rhs`.
///
/// - Complexity: O(1)
public func <> (lhs: some CGFloatConvertible, rhs: DistributionItem) -> [DistributionItem] { [.fixed(lhs.asCGFloat), rhs] }

/// `lhs` followed by a fixed spacer of `rhs` points.
///
/// - Complexity: O(1)
public func <> (lhs: DistributionItem, rhs: some CGFloatConvertible) -> [DistributionItem] { [lhs, .fixed(rhs.asCGFloat)] }

/// The view `lhs` followed by a fixed spacer of `rhs` points.
///
/// - Complexity: O(1)
public func <> (lhs: View, rhs: some CGFloatConvertible) -> [DistributionItem] { [.view(lhs), .fixed(rhs.asCGFloat)] }

/// A fixed spacer of `lhs` points followed by the view `rhs`.
///
/// - Complexity: O(1)
public func <> (lhs: some CGFloatConvertible, rhs: View) -> [DistributionItem] { [.fixed(lhs.asCGFloat), .view(rhs)] }

/// Half of a flexible spacer: `1~`, which the prefix `~` completes to `~1~`.
///
/// - Complexity: O(1)
public postfix func ~ (weight: Int) -> HalfFlexibleDistributionItem {
    HalfFlexibleDistributionItem(weight: weight)
}

/// A flexible spacer, `~1~`: `~2~` takes twice the share of the free space that `~1~` takes.
///
/// - Complexity: O(1)
public prefix func ~ (half: HalfFlexibleDistributionItem) -> DistributionItem {
    .flexible(half.weight)
}
