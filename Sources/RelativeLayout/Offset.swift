import Foundation

/// A displacement in points, as UIKit's `UIOffset`: positive `horizontal` is to the right,
/// positive `vertical` is down. Made with `10.horizontalOffset`, `8.verticalOffset` and their sums.
public struct Offset: Hashable, Sendable {
    /// Points to the right (negative: to the left).
    ///
    /// - Complexity: O(1)
    public var horizontal: CGFloat
    /// Points down (negative: up).
    ///
    /// - Complexity: O(1)
    public var vertical: CGFloat

    /// An offset of `horizontal` points right and `vertical` points down.
    ///
    /// - Complexity: O(1)
    public init(horizontal: CGFloat, vertical: CGFloat) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// No displacement.
    ///
    /// - Complexity: O(1)
    public static let zero = Offset(horizontal: 0, vertical: 0)

    /// The two displacements one after the other (offsets commute).
    ///
    /// - Complexity: O(1)
    public static func + (lhs: Offset, rhs: Offset) -> Offset {
        Offset(horizontal: lhs.horizontal + rhs.horizontal, vertical: lhs.vertical + rhs.vertical)
    }

    /// `lhs` followed by the opposite of `rhs`.
    ///
    /// - Complexity: O(1)
    public static func - (lhs: Offset, rhs: Offset) -> Offset {
        Offset(horizontal: lhs.horizontal - rhs.horizontal, vertical: lhs.vertical - rhs.vertical)
    }

    /// The opposite displacement.
    ///
    /// - Complexity: O(1)
    public static prefix func - (offset: Offset) -> Offset {
        Offset(horizontal: -offset.horizontal, vertical: -offset.vertical)
    }

    /// Each component of `lhs` times the same component of `rhs` (Relativity's `UIOffset * UIOffset`).
    ///
    /// - Complexity: O(1)
    public static func * (lhs: Offset, rhs: Offset) -> Offset {
        Offset(horizontal: lhs.horizontal * rhs.horizontal, vertical: lhs.vertical * rhs.vertical)
    }

    /// Each component of `lhs` divided by the same component of `rhs` (Relativity's
    /// `UIOffset / UIOffset`; a zero component of `rhs` gives an infinite or NaN component,
    /// as floating-point division does).
    ///
    /// - Complexity: O(1)
    public static func / (lhs: Offset, rhs: Offset) -> Offset {
        Offset(horizontal: lhs.horizontal / rhs.horizontal, vertical: lhs.vertical / rhs.vertical)
    }

    /// `lhs` grown by the offset: its width by `horizontal`, its height by `vertical`.
    ///
    /// - Complexity: O(1)
    public static func + (lhs: CGSize, rhs: Offset) -> CGSize {
        CGSize(width: lhs.width + rhs.horizontal, height: lhs.height + rhs.vertical)
    }

    /// `rhs` grown by the offset: its width by `horizontal`, its height by `vertical`.
    ///
    /// - Complexity: O(1)
    public static func + (lhs: Offset, rhs: CGSize) -> CGSize {
        CGSize(width: rhs.width + lhs.horizontal, height: rhs.height + lhs.vertical)
    }
}

/// A number that layout takes as points: `Int`, `Float`, `Double` and `CGFloat`. It gives
/// offsets (`10.horizontalOffset`) and fixed spacers in a distribution (`8 <> a`).
public protocol CGFloatConvertible {
    /// The value in points.
    ///
    /// - Complexity: O(1)
    var asCGFloat: CGFloat { get }
}

extension CGFloatConvertible {
    /// An offset of this many points to the right (negative: to the left).
    ///
    /// - Complexity: O(1)
    public var horizontalOffset: Offset { Offset(horizontal: asCGFloat, vertical: 0) }

    /// An offset of this many points down (negative: up).
    ///
    /// - Complexity: O(1)
    public var verticalOffset: Offset { Offset(horizontal: 0, vertical: asCGFloat) }
}

extension Int: CGFloatConvertible {
    /// The value in points.
    ///
    /// - Complexity: O(1)
    public var asCGFloat: CGFloat { CGFloat(self) }
}

extension Float: CGFloatConvertible {
    /// The value in points.
    ///
    /// - Complexity: O(1)
    public var asCGFloat: CGFloat { CGFloat(self) }
}

extension Double: CGFloatConvertible {
    /// The value in points.
    ///
    /// - Complexity: O(1)
    public var asCGFloat: CGFloat { CGFloat(self) }
}

extension CGFloat: CGFloatConvertible {
    /// The value in points.
    ///
    /// - Complexity: O(1)
    public var asCGFloat: CGFloat { self }
}
