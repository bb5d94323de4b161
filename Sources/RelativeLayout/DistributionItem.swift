import Foundation
import RelativeView

/// One item of a distribution along an axis: a view, a fixed spacer (points), or a
/// flexible spacer (a weight: its share of the space left after the views and fixed spacers).
public enum DistributionItem {
    /// A fixed space of this many points.
    case fixed(CGFloat)
    /// A flexible space: `.flexible(2)` (or `~2~`) takes twice the share of `.flexible(1)`.
    case flexible(Int)
    /// A subview to place.
    case view(View)
}

/// The first half of a flexible spacer, made by the postfix `~` (`1~`); the prefix `~`
/// turns it into ``DistributionItem/flexible(_:)``.
public struct HalfFlexibleDistributionItem: Hashable, Sendable {
    /// The spacer's weight.
    ///
    /// - Complexity: O(1)
    public let weight: Int
}

/// Builds the items of a distribution from a closure: a `<>` chain, or items one per line
/// (views, numbers, spacers, chains, with `if`, `switch` and `for`).
@resultBuilder
public struct DistributionItemsBuilder {
    /// An item.
    ///
    /// - Complexity: O(1)
    public static func buildExpression(_ item: DistributionItem) -> [DistributionItem] { [item] }
    /// A view.
    ///
    /// - Complexity: O(1)
    public static func buildExpression(_ view: View) -> [DistributionItem] { [.view(view)] }
    /// A fixed spacer.
    ///
    /// - Complexity: O(1)
    public static func buildExpression(_ points: some CGFloatConvertible) -> [DistributionItem] { [.fixed(points.asCGFloat)] }
    /// A `<>` chain.
    ///
    /// - Complexity: O(1)
    public static func buildExpression(_ items: [DistributionItem]) -> [DistributionItem] { items }
    /// An optional item: nothing when it is `nil`, as in Relativity.
    ///
    /// - Complexity: O(1)
    public static func buildExpression(_ item: DistributionItem?) -> [DistributionItem] { item.map { [$0] } ?? [] }
    /// Items, some of them `nil`: the `nil`s are left out, as in Relativity.
    ///
    /// - Complexity: O(number of items)
    public static func buildExpression(_ items: [DistributionItem?]) -> [DistributionItem] { items.compactMap { $0 } }
    /// The lines of a block, in order.
    ///
    /// - Complexity: O(number of items)
    public static func buildBlock(_ parts: [DistributionItem]...) -> [DistributionItem] { parts.flatMap { $0 } }
    /// The first line of a block (Relativity's partial blocks: the compiler builds a block
    /// from these, line by line).
    ///
    /// - Complexity: O(1)
    public static func buildPartialBlock(first: DistributionItem) -> [DistributionItem] { [first] }
    /// The first line of a block.
    ///
    /// - Complexity: O(1)
    public static func buildPartialBlock(first: [DistributionItem]) -> [DistributionItem] { first }
    /// A block so far, and its next line.
    ///
    /// - Complexity: O(1)
    public static func buildPartialBlock(accumulated: DistributionItem, next: DistributionItem) -> [DistributionItem] { [accumulated, next] }
    /// A block so far, and its next line.
    ///
    /// - Complexity: O(number of items)
    public static func buildPartialBlock(accumulated: DistributionItem, next: [DistributionItem]) -> [DistributionItem] { [accumulated] + next }
    /// A block so far, and its next line.
    ///
    /// - Complexity: O(number of items), amortized O(1) when the block is not shared.
    public static func buildPartialBlock(accumulated: [DistributionItem], next: DistributionItem) -> [DistributionItem] { accumulated + [next] }
    /// A block so far, and its next line.
    ///
    /// - Complexity: O(number of items)
    public static func buildPartialBlock(accumulated: [DistributionItem], next: [DistributionItem]) -> [DistributionItem] { accumulated + next }
    /// An `if` without `else`.
    ///
    /// - Complexity: O(1)
    public static func buildOptional(_ part: [DistributionItem]?) -> [DistributionItem] { part ?? [] }
    /// An `if` without `else`, taken (Relativity's overload).
    ///
    /// - Complexity: O(1)
    public static func buildOptional(_ part: [DistributionItem]) -> [DistributionItem] { part }
    /// The first branch of an `if`/`else` or `switch`.
    ///
    /// - Complexity: O(1)
    public static func buildEither(first part: [DistributionItem]) -> [DistributionItem] { part }
    /// The second branch of an `if`/`else` or `switch`.
    ///
    /// - Complexity: O(1)
    public static func buildEither(second part: [DistributionItem]) -> [DistributionItem] { part }
    /// A `for` loop.
    ///
    /// - Complexity: O(number of items)
    public static func buildArray(_ parts: [[DistributionItem]]) -> [DistributionItem] { parts.flatMap { $0 } }
}
