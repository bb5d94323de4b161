import Foundation
import RelativeViewCore

// Geometry follows UIKit without transforms: `frame` is in the superview's space, `bounds`
// has the frame's size and an origin that shifts the subviews, `center` is the frame's
// midpoint. It lives in the tree's columns (`ViewTree+Geometry.swift`), not in the views, so
// a large tree's geometry is contiguous and a geometry change leaves the relative-query
// index alone. A view without a store keeps its geometry in a small box until it joins a tree.

/// What few views set, boxed so that the others spend one reference on it: the geometry of a
/// view that has no store (neither superview nor subviews; with a store it is in the tree's
/// columns and zero here), and a root's screen scale.
final class _ViewExtras {
    var frameOrigin: SIMD2<Double> = .zero
    var frameSize: SIMD2<Double> = .zero
    var boundsOrigin: SIMD2<Double> = .zero
    /// See ``View/screenScale``; 0 for none.
    var screenScale: Double = 0

    /// Whether the geometry is all zero.
    var geometryIsZero: Bool { frameOrigin == .zero && frameSize == .zero && boundsOrigin == .zero }
    /// Whether all of it is zero, so the box can be dropped.
    var isEmpty: Bool { geometryIsZero && screenScale == 0 }
}

extension CGPoint {
    init(_ v: SIMD2<Double>) { self.init(x: v.x, y: v.y) }
    var simd: SIMD2<Double> { SIMD2(Double(x), Double(y)) }
}

extension CGSize {
    init(_ v: SIMD2<Double>) { self.init(width: v.x, height: v.y) }
    var simd: SIMD2<Double> { SIMD2(Double(width), Double(height)) }
}

extension View {
    // MARK: Geometry columns

    final var _frameOrigin: CGPoint {
        guard let store = _store else { return CGPoint(_extras?.frameOrigin ?? .zero) }
        return CGPoint(store.tree.frameOrigin(of: _node))
    }

    final var _frameSize: CGSize {
        guard let store = _store else { return CGSize(_extras?.frameSize ?? .zero) }
        return CGSize(store.tree.frameSize(of: _node))
    }

    final var _boundsOrigin: CGPoint {
        get {
            guard let store = _store else { return CGPoint(_extras?.boundsOrigin ?? .zero) }
            return CGPoint(store.tree.boundsOrigin(of: _node))
        }
        set {
            guard let store = _store else { return _updateExtras { $0.boundsOrigin = newValue.simd } }
            store.tree.setBoundsOrigin(newValue.simd, of: _node)
        }
    }

    final func _setFrame(origin: CGPoint, size: CGSize) {
        guard let store = _store else {
            return _updateExtras {
                $0.frameOrigin = origin.simd
                $0.frameSize = size.simd
            }
        }
        store.tree.setFrameOrigin(origin.simd, of: _node)
        store.tree.setFrameSize(size.simd, of: _node)
    }

    /// Changes the extras (a store-less view's geometry, the screen scale), keeping a box
    /// only while something in it is non-zero.
    final func _updateExtras(_ change: (_ViewExtras) -> Void) {
        let box = _extras ?? _ViewExtras()
        change(box)
        _extras = box.isEmpty ? nil : box
    }

    // MARK: Converting coordinates

    /// Converts a point from this view's coordinate space to that of `view`, or to the space
    /// of this view's root when `view` is `nil` (UIKit's window space).
    ///
    /// Both views must be in the same tree (traps otherwise). The conversion goes up to the
    /// two views' lowest common ancestor and down again, through the tree's columns.
    /// - Complexity: O(length of the path between the two views); O(depth) with `nil`.
    public func convert(_ point: CGPoint, to view: View?) -> CGPoint {
        guard let (tree, from, to) = _conversionEnds(self, view) else { return point }
        return CGPoint(tree.convert(point.simd, from: from, to: to))
    }

    /// Converts a point from the coordinate space of `view` (of this view's root when `nil`)
    /// to this view's.
    ///
    /// Both views must be in the same tree (traps otherwise).
    /// - Complexity: as the point form of `convert(_:to:)`.
    public func convert(_ point: CGPoint, from view: View?) -> CGPoint {
        guard let (tree, to, from) = _conversionEnds(self, view) else { return point }
        return CGPoint(tree.convert(point.simd, from: from, to: to))
    }

    /// Converts a rectangle from this view's coordinate space to that of `view` (of the root
    /// when `nil`): its origin moves, its size stays (there are no transforms).
    ///
    /// - Complexity: as the point form of `convert(_:to:)`.
    public func convert(_ rect: CGRect, to view: View?) -> CGRect {
        CGRect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// Converts a rectangle from the coordinate space of `view` (of the root when `nil`) to
    /// this view's: its origin moves, its size stays.
    ///
    /// - Complexity: as the point form of `convert(_:to:)`.
    public func convert(_ rect: CGRect, from view: View?) -> CGRect {
        CGRect(origin: convert(rect.origin, from: view), size: rect.size)
    }

    /// The tree and the two nodes of a conversion between `view` and `other` (its root when
    /// `nil`), or `nil` when the conversion is the identity (one view, or a root alone).
    private func _conversionEnds(_ view: View, _ other: View?) -> (ViewTree, NodeID, NodeID)? {
        if let other {
            if other === view { return nil }
            guard let store = view._store, store === other._store else {
                preconditionFailure("cannot convert between \(view) and \(other): they are in different view trees")
            }
            return (store.tree, view._node, other._node)
        }
        guard let store = view._store else { return nil }
        return (store.tree, view._node, store.tree.root(of: view._node))
    }

    // MARK: Screen scale

    /// The scale (pixels per point) of the screen this view's tree is shown on, set on the
    /// tree's root as UIKit sets it on a window's screen; `nil` when not set, and then
    /// layout uses its default (see `PixelRounder` in RelativeLayout).
    ///
    /// It belongs to the view it is set on: a subtree that is removed keeps none unless its
    /// own root has one, and a tree added under another takes the other tree's.
    /// Traps unless the scale is positive and finite.
    /// - Complexity: O(1)
    public var screenScale: CGFloat? {
        get { _extras.flatMap { $0.screenScale == 0 ? nil : CGFloat($0.screenScale) } }
        set {
            if let newValue {
                precondition(newValue > 0 && newValue.isFinite, "a screen scale must be positive and finite, not \(newValue)")
                _updateExtras { $0.screenScale = Double(newValue) }
            } else {
                _updateExtras { $0.screenScale = 0 }
            }
        }
    }

    /// Whether this view and `view` are in one tree (a view is in its own).
    ///
    /// - Complexity: O(1): views of one tree share one store.
    public func isInSameTree(as view: View) -> Bool {
        self === view || (_store != nil && _store === view._store)
    }

    /// The root of this view's tree: the view itself when it has no superview.
    ///
    /// - Complexity: O(depth)
    public var rootView: View {
        guard let store = _store else { return self }
        return store.view(store.tree.root(of: _node))
    }
}
