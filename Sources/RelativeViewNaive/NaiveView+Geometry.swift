import Foundation

// Coordinate conversion as UIKit does it without transforms: a point goes up from one view
// to the root of the hierarchy (the window's space), then down to the other view, walking
// both superview chains to the root. Nothing is cached and no common ancestor is sought.

extension NaiveView {
    /// Converts a point from this view's coordinate space to that of `view`, or to the space
    /// of the root of this view's hierarchy when `view` is `nil`.
    ///
    /// Traps if the two views are in different hierarchies.
    /// - Complexity: O(depth of this view + depth of `view`).
    public func convert(_ point: CGPoint, to view: NaiveView?) -> CGPoint {
        let (inRoot, root) = pointInRootSpace(point)
        guard let view else { return inRoot }
        let (origin, viewRoot) = view.pointInRootSpace(.zero)
        precondition(root === viewRoot, "cannot convert between views in different hierarchies")
        return CGPoint(x: inRoot.x - origin.x, y: inRoot.y - origin.y)
    }

    /// Converts a point from the coordinate space of `view` (of this view's root when `nil`)
    /// to this view's.
    ///
    /// Traps if the two views are in different hierarchies.
    /// - Complexity: O(depth of this view + depth of `view`).
    public func convert(_ point: CGPoint, from view: NaiveView?) -> CGPoint {
        guard let view else {
            let (origin, _) = pointInRootSpace(.zero)
            return CGPoint(x: point.x - origin.x, y: point.y - origin.y)
        }
        return view.convert(point, to: self)
    }

    /// Converts a rectangle from this view's space to that of `view` (the root's when `nil`).
    ///
    /// - Complexity: O(depth of this view + depth of `view`).
    public func convert(_ rect: CGRect, to view: NaiveView?) -> CGRect {
        CGRect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// Converts a rectangle from the space of `view` (the root's when `nil`) to this view's.
    ///
    /// - Complexity: O(depth of this view + depth of `view`).
    public func convert(_ rect: CGRect, from view: NaiveView?) -> CGRect {
        CGRect(origin: convert(rect.origin, from: view), size: rect.size)
    }

    /// `point`, given in this view's space, in the space of the hierarchy's root; and that root.
    private func pointInRootSpace(_ point: CGPoint) -> (CGPoint, NaiveView) {
        var p = point
        var view = self
        while let superview = view.superview {
            p.x += view.frame.origin.x - view.boundsOrigin.x
            p.y += view.frame.origin.y - view.boundsOrigin.y
            view = superview
        }
        return (p, view)
    }
}
