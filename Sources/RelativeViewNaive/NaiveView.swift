import Foundation

/// A minimal, pointer-based stand-in for UIKit's `UIView`.
///
/// `NaiveView` is the naive baseline and test oracle of the relative-view
/// port: every view holds a strong array of its `subviews` and a weak
/// back-pointer to its `superview`, and every query walks those pointers the
/// way UIKit (and the original relative-view extension) does. Nothing here is
/// optimized on purpose.
///
/// Views are reference types with shared mutable state and are deliberately
/// not `Sendable`.
///
/// - Complexity: Each member documents its own cost; `n` is the number of
///   views in the subtree concerned, `depth` the length of a superview chain.
open class NaiveView {
    /// Creates a detached view with tag `0`, no superview and no subviews.
    ///
    /// - Complexity: O(1)
    public init() {}

    /// An integer that identifies the view, as UIKit's `UIView.tag`. Defaults to `0`.
    ///
    /// - Complexity: O(1)
    open var tag: Int = 0

    /// The frame rectangle, in the superview's coordinate space, as UIKit's `UIView.frame`
    /// (without transforms). Defaults to `.zero`.
    ///
    /// - Complexity: O(1)
    open var frame: CGRect = .zero

    /// The origin of the bounds: the point of this view's space drawn at the frame's
    /// top-left corner (see ``bounds``).
    var boundsOrigin: CGPoint = .zero

    /// The view's own coordinate space: the frame's size, and an origin that shifts the
    /// subviews. Setting a new size keeps the center, as UIKit does.
    ///
    /// - Complexity: O(1)
    open var bounds: CGRect {
        get { CGRect(origin: boundsOrigin, size: frame.size) }
        set {
            // `size.width`, not `width`: Foundation's `CGRect.width` is the absolute value.
            frame = CGRect(x: frame.origin.x + (frame.size.width - newValue.size.width) / 2,
                           y: frame.origin.y + (frame.size.height - newValue.size.height) / 2,
                           width: newValue.size.width, height: newValue.size.height)
            boundsOrigin = newValue.origin
        }
    }

    /// The center of the frame, in the superview's space; setting it moves the view.
    ///
    /// - Complexity: O(1)
    open var center: CGPoint {
        get { CGPoint(x: frame.origin.x + frame.size.width / 2, y: frame.origin.y + frame.size.height / 2) }
        set { frame.origin = CGPoint(x: newValue.x - frame.size.width / 2, y: newValue.y - frame.size.height / 2) }
    }

    /// The view's parent, or `nil` if the view is not in a hierarchy.
    ///
    /// The reference is weak, as in UIKit: a parent is kept alive by its own
    /// owner, not by its children.
    ///
    /// - Complexity: O(1)
    public private(set) weak var superview: NaiveView?

    /// The view's children, back to front (index 0 is the backmost).
    ///
    /// - Complexity: O(1)
    public private(set) var subviews: [NaiveView] = []

    // MARK: - Mutation

    /// Appends `view` to the end of this view's `subviews`.
    ///
    /// If `view` already has a superview it is first removed from it, as in
    /// UIKit; adding a view to its current superview moves it to the end.
    ///
    /// - Precondition: `view` is neither this view nor one of its ancestors.
    /// - Complexity: O(depth + s), where `s` is the number of subviews of
    ///   the old superview of `view`.
    public func addSubview(_ view: NaiveView) {
        precondition(
            !isInSuperviewChain(view),
            "cannot add a view as a subview of itself or of its descendants"
        )
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Inserts `view` into `subviews` at `index`.
    ///
    /// `view` is first removed from its current superview (which may be this
    /// view), and `index` is then checked against the resulting `subviews`.
    ///
    /// - Precondition: `view` is neither this view nor one of its ancestors,
    ///   and `0 <= index <= subviews.count` after the removal.
    /// - Complexity: O(depth + s), where `s` is the number of subviews
    ///   involved.
    public func insertSubview(_ view: NaiveView, at index: Int) {
        precondition(
            !isInSuperviewChain(view),
            "cannot add a view as a subview of itself or of its descendants"
        )
        view.removeFromSuperview()
        precondition(index >= 0 && index <= subviews.count, "index out of range")
        subviews.insert(view, at: index)
        view.superview = self
    }

    /// Inserts `view` directly above `siblingSubview` (just after it in
    /// `subviews`).
    ///
    /// Inserting a view above itself does nothing.
    ///
    /// - Precondition: `siblingSubview` is a subview of this view, and
    ///   `view` is neither this view nor one of its ancestors.
    /// - Complexity: O(depth + s), where `s` is the number of subviews
    ///   involved.
    public func insertSubview(_ view: NaiveView, aboveSubview siblingSubview: NaiveView) {
        insertSubview(view, beside: siblingSubview, offset: 1, "insertSubview(_:aboveSubview:)")
    }

    /// Inserts `view` directly below `siblingSubview` (just before it in
    /// `subviews`).
    ///
    /// Inserting a view below itself does nothing.
    ///
    /// - Precondition: `siblingSubview` is a subview of this view, and
    ///   `view` is neither this view nor one of its ancestors.
    /// - Complexity: O(depth + s), where `s` is the number of subviews
    ///   involved.
    public func insertSubview(_ view: NaiveView, belowSubview siblingSubview: NaiveView) {
        insertSubview(view, beside: siblingSubview, offset: 0, "insertSubview(_:belowSubview:)")
    }

    /// Inserts `view` at `offset` from `siblingSubview`'s index in `subviews` (0: below it,
    /// 1: above it); nothing if `view` is `siblingSubview`. `method` names the caller in
    /// the messages.
    private func insertSubview(_ view: NaiveView, beside siblingSubview: NaiveView, offset: Int, _ method: String) {
        precondition(
            siblingSubview.superview === self,
            "\(method): the sibling view is not a subview of this view"
        )
        guard view !== siblingSubview else { return }
        precondition(
            !isInSuperviewChain(view),
            "cannot add a view as a subview of itself or of its descendants"
        )
        view.removeFromSuperview()
        guard let index = subviews.firstIndex(where: { $0 === siblingSubview }) else {
            preconditionFailure("\(method): the sibling view is not a subview of this view")
        }
        subviews.insert(view, at: index + offset)
        view.superview = self
    }

    /// Detaches the view from its superview. Does nothing if it has none.
    ///
    /// - Complexity: O(s), where `s` is the number of subviews of the
    ///   superview.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        if let index = parent.subviews.firstIndex(where: { $0 === self }) {
            parent.subviews.remove(at: index)
        }
        superview = nil
    }

    /// Moves `view` to the end of `subviews` (frontmost). Does nothing if
    /// `view` is not a subview of this view.
    ///
    /// - Complexity: O(s), where `s` is the number of subviews.
    public func bringSubviewToFront(_ view: NaiveView) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.remove(at: index)
        subviews.append(view)
    }

    /// Moves `view` to the start of `subviews` (backmost). Does nothing if
    /// `view` is not a subview of this view.
    ///
    /// - Complexity: O(s), where `s` is the number of subviews.
    public func sendSubviewToBack(_ view: NaiveView) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.remove(at: index)
        subviews.insert(view, at: 0)
    }

    /// Swaps the subviews at `index1` and `index2`.
    ///
    /// - Precondition: both indices are valid indices of `subviews`.
    /// - Complexity: O(1)
    public func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        precondition(subviews.indices.contains(index1), "index out of range")
        precondition(subviews.indices.contains(index2), "index out of range")
        subviews.swapAt(index1, index2)
    }

    // MARK: - UIKit queries

    /// Returns `true` if this view is `view` or lies somewhere below it,
    /// like UIKit's `isDescendant(of:)`.
    ///
    /// Walks the superview chain from this view upward.
    ///
    /// - Complexity: O(depth)
    public func isDescendant(of view: NaiveView) -> Bool {
        var current: NaiveView? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// Returns the first view whose `tag` equals `tag`, checking this view
    /// first and then its subviews recursively, depth-first, in `subviews`
    /// order, like UIKit's `viewWithTag(_:)`.
    ///
    /// - Complexity: O(n), where `n` is the number of views in this view's
    ///   subtree.
    public func viewWithTag(_ tag: Int) -> NaiveView? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    // MARK: - Private

    /// Whether `view` is this view or one of its ancestors, found by walking
    /// the superview chain upward from this view.
    private func isInSuperviewChain(_ view: NaiveView) -> Bool { isDescendant(of: view) }
}
