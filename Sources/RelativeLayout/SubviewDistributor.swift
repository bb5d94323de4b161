import Foundation
import RelativeView

/// Places subviews one after another along an axis, with fixed and flexible spacers between
/// them (see ``RelativeView/View/distributeSubviewsHorizontally(within:subviewDistributionCreationBlock:)``).
///
/// A distribution that starts or ends with a view gets a `~1~` spacer there, so views float
/// in the free space unless pinned. Flexible spacers share the space left once the views'
/// sizes and the fixed spacers are taken out, in proportion to their weights. Each view is
/// placed by aligning its leading anchor (`left` or `top`) to the running position, so it
/// lands on the pixel grid, and is centered across the axis in the rectangle. The running
/// position is rounded to the pixel grid after every spacer, as Relativity's is.
///
/// Views too long for the rectangle go through ``ErrorHandler`` and are then placed as
/// Relativity places them: the rectangle is widened by the overflow on both sides and the
/// flexible spacers take their negative share, so a 140-point view in a 100-point superview
/// lands at x = -60.
public struct SubviewDistributor {
    enum Axis {
        case horizontal
        case vertical
    }

    let superview: View
    let axis: Axis

    /// A distributor of `superview`'s subviews from top to bottom (Relativity's spelling).
    ///
    /// - Complexity: O(1)
    public static func newVerticalSubviewDistributor(with superview: View) -> SubviewDistributor {
        SubviewDistributor(superview: superview, axis: .vertical)
    }

    /// A distributor of `superview`'s subviews from left to right (Relativity's spelling).
    ///
    /// - Complexity: O(1)
    public static func newHorizontalSubviewDistributor(with superview: View) -> SubviewDistributor {
        SubviewDistributor(superview: superview, axis: .horizontal)
    }

    /// Places the items in `rect` (in the superview's bounds space; `.zero`, the default,
    /// means the whole bounds, as in Relativity).
    ///
    /// - Complexity: O(number of items × the cost of an alignment).
    public func distribute(subviewDistribution: [DistributionItem], within rect: CGRect = .zero) {
        distribute(subviewDistribution, within: rect == .zero ? nil : rect)
    }

    func distribute(_ requested: [DistributionItem], within rect: CGRect?) {
        var items: [DistributionItem] = []
        items.reserveCapacity(requested.count + 2)
        for item in requested {
            switch item {
            case .flexible(let weight) where weight < 1:
                ErrorHandler.assertionFailure("Attempting to distribute a flexible spacer \(weight), which is less than 1!")
            case .view(let view) where view.superview !== superview:
                ErrorHandler.assertionFailure("Attempting to distribute a view \(view) that is not a subview of \(superview)!")
            default:
                items.append(item)
            }
        }
        guard !items.isEmpty else { return }
        if case .view = items[0] { items.insert(.flexible(1), at: 0) }
        if case .view = items[items.count - 1] { items.append(.flexible(1)) }

        var area = rect ?? superview.bounds
        var free = length(of: area.size)
        var totalWeight = 0
        for item in items {
            switch item {
            case .fixed(let points): free -= points
            case .flexible(let weight): totalWeight += weight
            case .view(let view): free -= length(of: view.bounds.size)
            }
        }
        if free < 0 {
            ErrorHandler.assertionFailure("Views are too large to fit in distribution.")
            // As Relativity does: widen the area by the overflow on both sides, and let the
            // flexible spacers take their (negative) share of it. It looks bad, but every
            // view is still placed.
            area = axis == .horizontal ? area.insetBy(dx: free, dy: 0) : area.insetBy(dx: 0, dy: free)
        }

        // The running position: a point on the superview (in its bounds space, where its
        // subviews' frames are), then each placed view's trailing anchor. Every step makes a
        // new position, which rounds it to the pixel grid, as Relativity's `+` does.
        var position = ViewPosition(
            view: superview,
            position: axis == .horizontal ? CGPoint(x: area.minX, y: area.midY) : CGPoint(x: area.midX, y: area.minY))
        for item in items {
            switch item {
            case .fixed(let points):
                position = position + step(points)
            case .flexible(let weight):
                position = position + step(free * CGFloat(weight) / CGFloat(totalWeight))
            case .view(let view):
                if axis == .horizontal {
                    view.left.align(to: position)
                    position = view.right
                } else {
                    view.top.align(to: position)
                    position = view.bottom
                }
            }
        }
    }

    private func step(_ points: CGFloat) -> Offset {
        axis == .horizontal ? Offset(horizontal: points, vertical: 0) : Offset(horizontal: 0, vertical: points)
    }

    private func length(of size: CGSize) -> CGFloat {
        axis == .horizontal ? size.width : size.height
    }
}

extension View {
    /// Places subviews from left to right in `rect` (the whole bounds when `.zero`, the
    /// default, as in Relativity), as the closure lists them with spacers:
    /// `superview.distributeSubviewsHorizontally { a <> ~1~ <> b <> 8 <> c }`.
    ///
    /// Each view keeps its size and is centered vertically in the rectangle. Misuse goes
    /// through ``ErrorHandler`` and the item is left out: a view that is not a subview of
    /// this view, a flexible weight below 1; views too long for the rectangle are reported
    /// and placed as ``SubviewDistributor`` says.
    /// - Parameters:
    ///   - rect: The area to distribute in, in this view's bounds space (where its subviews'
    ///     frames are); `.zero` for the whole bounds.
    ///   - subviewDistributionCreationBlock: The views and spacers, in order.
    /// - Complexity: O(number of items × the cost of an alignment).
    public func distributeSubviewsHorizontally(
        within rect: CGRect = .zero, @DistributionItemsBuilder subviewDistributionCreationBlock: () -> [DistributionItem]
    ) {
        SubviewDistributor.newHorizontalSubviewDistributor(with: self).distribute(subviewDistribution: subviewDistributionCreationBlock(), within: rect)
    }

    /// Places subviews from top to bottom in `rect` (the whole bounds when `.zero`, the
    /// default), as the closure lists them with spacers:
    /// `superview.distributeSubviewsVertically { a <> ~1~ <> b }`.
    ///
    /// Each view keeps its size and is centered horizontally in the rectangle; misuse is
    /// handled as in ``distributeSubviewsHorizontally(within:subviewDistributionCreationBlock:)``.
    /// - Parameters:
    ///   - rect: The area to distribute in, in this view's bounds space; `.zero` for the whole bounds.
    ///   - subviewDistributionCreationBlock: The views and spacers, in order.
    /// - Complexity: O(number of items × the cost of an alignment).
    public func distributeSubviewsVertically(
        within rect: CGRect = .zero, @DistributionItemsBuilder subviewDistributionCreationBlock: () -> [DistributionItem]
    ) {
        SubviewDistributor.newVerticalSubviewDistributor(with: self).distribute(subviewDistribution: subviewDistributionCreationBlock(), within: rect)
    }
}
