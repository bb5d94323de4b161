import Foundation
import RelativeViewCore

/// A node of a view tree, with UIKit's `UIView` API and the relative-view extension.
///
/// A `View` is a thin handle: its tag, type and links live in the arena of the store it
/// shares with the rest of its tree, so ancestor and descendant questions are answered by
/// the Euler-tour index in O(1). Subclass it (or use the stock subclasses: ``Button``,
/// ``Label``, ``ImageView``, ...) as you would `UIView`.
///
/// Ownership is UIKit's: a superview keeps its subviews alive; a view that nothing
/// references is freed together with the subviews that nothing else references.
/// Views are not `Sendable`, like UIKit's, which are bound to the main actor.
open class View: Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The store of this view's tree, or `nil` while the view has neither superview nor subviews.
    @usableFromInline @exclusivity(unchecked) final var _store: ViewStore?
    /// This view's node in `_store`; meaningless while `_store` is `nil`.
    @usableFromInline @exclusivity(unchecked) final var _node = NodeID(index: -1, stamp: 0)
    /// The tree version at which `_tagOrSpan` holds `_node`'s positions in the index; 0 when
    /// it holds none. Reset whenever `_store` or `_node` changes (see `View+Spans.swift`).
    @exclusivity(unchecked) final var _spanVersion: UInt64 = 0
    /// With no store: the tag. With a store and a `_spanVersion`: `_node`'s enter and exit
    /// positions in the index (enter in the low 32 bits, exit in the high 32), so that ancestor
    /// queries read each view once and none of the tree's columns. A view holds a tag or
    /// positions, never both, so they share these 8 bytes.
    @exclusivity(unchecked) final var _tagOrSpan = 0

    /// The tag while the view has no store. Setting it drops a kept interval.
    final var _loneTag: Int {
        get { _tagOrSpan }
        set {
            _tagOrSpan = newValue
            _spanVersion = 0
        }
    }

    /// What few views set, or `nil` while it is all zero: with no store, the view's
    /// geometry (with a store it is in the tree's columns, see `View+Geometry.swift`); the
    /// scale of the screen its tree is shown on (see ``screenScale``). One reference, so a
    /// view is 56 bytes, which the allocator serves from 64-byte blocks.
    final var _extras: _ViewExtras?

    // MARK: Geometry (stored in the tree's columns: View+Geometry.swift)

    /// The frame rectangle, in the superview's coordinate space.
    ///
    /// Setting it moves and resizes the view; its bounds keep their origin and take its size.
    /// - Complexity: O(1)
    open var frame: CGRect {
        get { CGRect(origin: _frameOrigin, size: _frameSize) }
        set { _setFrame(origin: newValue.origin, size: newValue.size) }
    }

    /// The bounds rectangle: the view's own coordinate space, whose origin is the point
    /// drawn at the frame's top-left corner (a non-zero origin shifts the subviews), and
    /// whose size is the frame's.
    ///
    /// Setting a new size keeps the ``center`` (as UIKit does), so the frame grows or shrinks
    /// around it.
    /// - Complexity: O(1)
    open var bounds: CGRect {
        get { CGRect(origin: _boundsOrigin, size: _frameSize) }
        set {
            let old = _frameSize
            let origin = _frameOrigin
            // `size.width`, not `width`: Foundation's `CGRect.width` is the absolute value.
            _setFrame(origin: CGPoint(x: origin.x + (old.width - newValue.size.width) / 2,
                                      y: origin.y + (old.height - newValue.size.height) / 2),
                      size: newValue.size)
            _boundsOrigin = newValue.origin
        }
    }

    /// The center of the frame, in the superview's coordinate space. Setting it moves the
    /// view without resizing it.
    ///
    /// - Complexity: O(1)
    open var center: CGPoint {
        get {
            let (origin, size) = (_frameOrigin, _frameSize)
            return CGPoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2)
        }
        set {
            let size = _frameSize
            _setFrame(origin: CGPoint(x: newValue.x - size.width / 2, y: newValue.y - size.height / 2), size: size)
        }
    }

    /// A view with a zero frame.
    ///
    /// - Complexity: O(1)
    public init() {}

    /// A view with the given frame.
    ///
    /// - Complexity: O(1)
    public init(frame: CGRect) {
        self.frame = frame
    }

    deinit {
        // Only a root can be freed: the store keeps every view that has a superview.
        _store?.releaseRoot(_node)
    }

    /// The store, created on first need (a view alone has none).
    @usableFromInline
    func _ensureStore() -> ViewStore {
        if let store = _store { return store }
        return ViewStore.adopting(self)
    }

    /// An integer that identifies the view; `0` by default.
    ///
    /// - Complexity: O(1)
    open var tag: Int {
        get {
            guard let store = _store else { return _loneTag }
            return store.tree._unowned.tag(ofLive: _node)
        }
        set {
            guard let store = _store else { return _loneTag = newValue }
            store.tree.setTag(newValue, of: _node)
        }
    }

    /// Lays the index of this view's tree out in tour order, as `ViewTree.compactIndex()`
    /// does for the core (each `addSubview` puts index blocks wherever there is room, and
    /// the upkeep of every change brings them back in order a little at a time; this does
    /// it at once): never needed, and not for a frame budget. Queries answer the same before and after.
    /// The tree's columns and the store's table of views give back their spare capacity,
    /// and every view of the tree keeps its new positions in the index, so that the O(1)
    /// ancestor and descendant queries that follow read the two views and nothing else
    /// until the tree next changes (without it, a view's first such query after a change
    /// reads its positions from the tree's columns).
    ///
    /// - Complexity: O(size of the tree)
    public func compactIndex() {
        guard let store = _store else { return }
        store.tree.compactIndex()
        store.trimCapacity()
        store.keepSpans()
    }

    // MARK: Hierarchy

    /// The view's superview, or `nil`.
    ///
    /// - Complexity: O(1)
    public var superview: View? {
        guard let store = _store, let parent = store.tree.parent(of: _node) else { return nil }
        return store.view(parent)
    }

    /// The view's immediate subviews, back to front.
    ///
    /// - Complexity: O(number of subviews)
    public var subviews: [View] {
        guard let store = _store else { return [] }
        return store.views(Array(store.tree.children(of: _node)))
    }

    /// Adds `view` as the last (frontmost) subview, removing it from its superview first.
    ///
    /// Traps if `view` is this view or one of its ancestors.
    /// - Complexity: a subtree move in the tree's index (O(size of `view`'s subtree + log n)
    ///   amortized, see `ViewTree`) within one tree; across trees, O(size of the smaller
    ///   tree) to merge their stores.
    public func addSubview(_ view: View) {
        ViewStore.link(view, under: self, at: .last)
    }

    /// Inserts `view` among the subviews at `index` (counted after `view` leaves its superview).
    ///
    /// Traps if `index` is out of range or `view` is this view or one of its ancestors.
    /// - Complexity: O(index), plus the cost of ``addSubview(_:)``.
    public func insertSubview(_ view: View, at index: Int) {
        ViewStore.link(view, under: self, at: .index(index))
    }

    /// Inserts `view` just above (after) `siblingSubview`, which must be a subview of this view.
    ///
    /// - Complexity: as ``addSubview(_:)``.
    public func insertSubview(_ view: View, aboveSubview siblingSubview: View) {
        precondition(siblingSubview.superview === self, "\(siblingSubview) is not a subview of \(self)")
        guard view !== siblingSubview else { return }
        ViewStore.link(view, under: self, at: .after(siblingSubview))
    }

    /// Inserts `view` just below (before) `siblingSubview`, which must be a subview of this view.
    ///
    /// - Complexity: as ``addSubview(_:)``.
    public func insertSubview(_ view: View, belowSubview siblingSubview: View) {
        precondition(siblingSubview.superview === self, "\(siblingSubview) is not a subview of \(self)")
        guard view !== siblingSubview else { return }
        ViewStore.link(view, under: self, at: .before(siblingSubview))
    }

    /// Removes the view from its superview; if nothing else references it, it is freed at once.
    ///
    /// - Complexity: O(min(size of its subtree, size of the rest of the tree)), to give the
    ///   two trees their own stores.
    public func removeFromSuperview() {
        ViewStore.unlink(self)
    }

    /// Moves `view` to the front (last position) of the subviews; no effect if it is not a subview.
    ///
    /// - Complexity: a subtree move of `view` in the core (see `ViewTree.makeLastChild(_:)`):
    ///   amortized O(B + s/B + log n) for a subtree of s views, B = 64.
    public func bringSubviewToFront(_ view: View) {
        guard let store = _store, view.superview === self else { return }
        store.tree.makeLastChild(view._node)
    }

    /// Moves `view` to the back (first position) of the subviews; no effect if it is not a subview.
    ///
    /// - Complexity: a subtree move of `view` in the core (see `ViewTree.makeFirstChild(_:)`):
    ///   amortized O(B + s/B + log n) for a subtree of s views, B = 64.
    public func sendSubviewToBack(_ view: View) {
        guard let store = _store, view.superview === self else { return }
        store.tree.makeFirstChild(view._node)
    }

    /// Exchanges the subviews at two indices. Traps if either is out of range.
    ///
    /// - Complexity: O(max(index1, index2))
    public func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard let store = _store else { preconditionFailure("subview index out of range: the view has no subviews") }
        store.tree.exchangeChildren(of: _node, at: index1, index2)
    }

    /// Whether this view is `view` or one of its descendants (UIKit's meaning: true for the view itself).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func isDescendant(of view: View) -> Bool {
        self === view || _isRelativeDescendant(of: view)
    }

    /// This view if its tag is `tag`, else the first descendant with that tag in depth-first pre-order.
    ///
    /// - Complexity: O(size of the subtree).
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        guard let store = _store else { return nil }
        let tree = store.tree
        return tree.descendants(of: _node).first { tree.tag(of: $0) == tag }.map(store.view)
    }

    // MARK: Identity

    /// Views are equal only to themselves.
    ///
    /// - Complexity: O(1)
    public static func == (lhs: View, rhs: View) -> Bool { lhs === rhs }

    /// Hashes the view's identity.
    ///
    /// - Complexity: O(1)
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The class name and tag, e.g. `<Button tag=3>`.
    ///
    /// - Complexity: O(1)
    open var description: String { "<\(Swift.type(of: self)) tag=\(tag)>" }

    /// The class name, frame, tag, node, subview count and superview's class, in the spirit
    /// of UIKit's, e.g. `<Label: frame = (0 0; 100 20); tag = 3; node = #12.0; 2 subviews; superview = View>`.
    ///
    /// A view with neither superview nor subviews has no node yet: `node = none`, and
    /// `superview = none` for any view without one. See ``recursiveDescription(maxLines:)``
    /// for the whole subtree.
    /// - Complexity: O(number of subviews)
    open var debugDescription: String { _debugDescription }
}
