import Foundation
import RelativeView

/// Rounds coordinates to the pixel grid of a screen, so that layout never leaves a view on a
/// fractional pixel (which would draw it blurred).
///
/// The scale in force for a view is its tree's: the root view's `screenScale`, else ``defaultScreenScale``, a task-local value (1 unless a caller binds it
/// with `PixelRounder.$defaultScreenScale.withValue(2) { ... }`), which is how a whole
/// program or a single test sets it without shared mutable state.
public struct PixelRounder: Hashable, Sendable {
    /// Two values closer than this are the same pixel coordinate (floating-point slack).
    ///
    /// - Complexity: O(1)
    public static let significantPrecision: CGFloat = 1e-7

    /// The screen scale used where a view's tree sets none: 1 unless bound for the current task.
    ///
    /// - Complexity: O(1)
    @TaskLocal public static var defaultScreenScale: CGFloat = 1

    /// Pixels per point.
    ///
    /// - Complexity: O(1)
    public let screenScale: CGFloat

    /// A rounder for a screen with `screenScale` pixels per point (1, 2 and 3 are the common ones).
    ///
    /// A scale that is not a positive whole number is a misuse: it goes through
    /// ``ErrorHandler`` and is rounded (to at least 1).
    /// - Complexity: O(1)
    public init(withScreenScale screenScale: CGFloat) {
        if screenScale >= 1 && screenScale.isFinite && screenScale.rounded() == screenScale {
            self.screenScale = screenScale
        } else {
            // Relativity's message for a scale that is not a whole number; ours for one that
            // is not positive and finite, which Relativity does not check.
            ErrorHandler.assertionFailure(screenScale >= 1 && screenScale.isFinite
                ? "Initializing a PixelRounder with a screenScale that isn't integral."
                : "A PixelRounder needs a whole, positive screen scale, not \(screenScale)")
            self.screenScale = screenScale.isFinite ? Swift.max(1, screenScale.rounded()) : 1
        }
    }

    /// A rounder for the scale in force for `view`: its root's `screenScale`, else ``defaultScreenScale``.
    ///
    /// - Complexity: O(depth of `view`), to find its root.
    public init(for view: View) {
        self.init(withScreenScale: view.rootView.screenScale ?? Self.defaultScreenScale)
    }

    /// A rounder for `screen`'s scale, or for ``Screen/main`` (``defaultScreenScale``) when
    /// `screen` is `nil`, the default: Relativity's `PixelRounder(for: UIScreen?)`, and
    /// `PixelRounder()`.
    ///
    /// - Complexity: O(1)
    public init(for screen: Screen? = nil) {
        self.init(withScreenScale: (screen ?? .main).scale)
    }

    /// `value` rounded to the nearest pixel boundary (halves away from zero).
    ///
    /// - Complexity: O(1)
    public func roundToPixel(_ value: CGFloat) -> CGFloat { (value * screenScale).rounded() / screenScale }

    /// `value` rounded up to a pixel boundary.
    ///
    /// - Complexity: O(1)
    public func ceilToPixel(_ value: CGFloat) -> CGFloat { (value * screenScale).rounded(.up) / screenScale }

    /// `value` rounded down to a pixel boundary.
    ///
    /// - Complexity: O(1)
    public func floorToPixel(_ value: CGFloat) -> CGFloat { (value * screenScale).rounded(.down) / screenScale }

    /// Both coordinates rounded to the nearest pixel boundary.
    ///
    /// - Complexity: O(1)
    public func roundToPixel(_ point: CGPoint) -> CGPoint { CGPoint(x: roundToPixel(point.x), y: roundToPixel(point.y)) }

    /// Both coordinates rounded up to a pixel boundary.
    ///
    /// - Complexity: O(1)
    public func ceilToPixel(_ point: CGPoint) -> CGPoint { CGPoint(x: ceilToPixel(point.x), y: ceilToPixel(point.y)) }

    /// Both coordinates rounded down to a pixel boundary.
    ///
    /// - Complexity: O(1)
    public func floorToPixel(_ point: CGPoint) -> CGPoint { CGPoint(x: floorToPixel(point.x), y: floorToPixel(point.y)) }

    /// Width and height rounded to the nearest pixel boundary.
    ///
    /// - Complexity: O(1)
    public func roundToPixel(_ size: CGSize) -> CGSize { CGSize(width: roundToPixel(size.width), height: roundToPixel(size.height)) }

    /// Width and height rounded up to a pixel boundary (the size that fits content of `size`).
    ///
    /// - Complexity: O(1)
    public func ceilToPixel(_ size: CGSize) -> CGSize { CGSize(width: ceilToPixel(size.width), height: ceilToPixel(size.height)) }

    /// Width and height rounded down to a pixel boundary.
    ///
    /// - Complexity: O(1)
    public func floorToPixel(_ size: CGSize) -> CGSize { CGSize(width: floorToPixel(size.width), height: floorToPixel(size.height)) }

    /// Origin and size each rounded to the nearest pixel boundary.
    ///
    /// - Complexity: O(1)
    public func roundToPixel(_ rect: CGRect) -> CGRect { CGRect(origin: roundToPixel(rect.origin), size: roundToPixel(rect.size)) }

    /// The smallest pixel-aligned rectangle that contains `rect` (its edges rounded outward).
    ///
    /// - Complexity: O(1)
    public func ceilToPixel(_ rect: CGRect) -> CGRect {
        let minimum = floorToPixel(CGPoint(x: rect.minX, y: rect.minY))
        let maximum = ceilToPixel(CGPoint(x: rect.maxX, y: rect.maxY))
        return CGRect(x: minimum.x, y: minimum.y, width: maximum.x - minimum.x, height: maximum.y - minimum.y)
    }

    /// The largest pixel-aligned rectangle inside `rect` (its edges rounded inward; empty
    /// if none fits).
    ///
    /// - Complexity: O(1)
    public func floorToPixel(_ rect: CGRect) -> CGRect {
        let minimum = ceilToPixel(CGPoint(x: rect.minX, y: rect.minY))
        let maximum = floorToPixel(CGPoint(x: rect.maxX, y: rect.maxY))
        return CGRect(x: minimum.x, y: minimum.y,
                      width: Swift.max(0, maximum.x - minimum.x), height: Swift.max(0, maximum.y - minimum.y))
    }

    /// Whether `value` is on a pixel boundary (within ``significantPrecision``).
    ///
    /// - Complexity: O(1)
    public func isRoundedToPixel(_ value: CGFloat) -> Bool { abs(value - roundToPixel(value)) < Self.significantPrecision }

    /// Whether both coordinates are on pixel boundaries.
    ///
    /// - Complexity: O(1)
    public func isRoundedToPixel(_ point: CGPoint) -> Bool { isRoundedToPixel(point.x) && isRoundedToPixel(point.y) }
}

/// What stands for UIKit's `UIScreen` here: a screen scale. A view tree's screen is its root
/// view's `screenScale` (the root stands for the window), so layout code rarely needs one;
/// it exists so that Relativity's `PixelRounder(for: UIScreen.main)` ports unchanged.
public struct Screen: Hashable, Sendable {
    /// Pixels per point.
    ///
    /// - Complexity: O(1)
    public var scale: CGFloat

    /// A screen with `scale` pixels per point.
    ///
    /// - Complexity: O(1)
    public init(scale: CGFloat) {
        self.scale = scale
    }

    /// The screen whose scale is ``PixelRounder/defaultScreenScale`` for the current task
    /// (1 unless bound).
    ///
    /// - Complexity: O(1)
    public static var main: Screen { Screen(scale: PixelRounder.defaultScreenScale) }
}
