import RelativeViewCore

// A view's description for debugging, and its subtree as text: the core's
// `ViewTree+Description.swift` formats both; the facade only supplies this view's values.

extension View {
    /// ``debugDescription``'s text, in the core's node format with the facade's extras.
    final var _debugDescription: String {
        let subviews = _store?.tree.childCount(of: _node) ?? 0
        return ViewTree._nodeLine(
            typeName: String(describing: Swift.type(of: self)),
            frame: (_frameOrigin.simd, _frameSize.simd),
            tag: tag,
            node: _store.map { $0.tree._listingName(of: _node) },
            extras: [
                ViewTree._grouped(subviews, "subview"),
                "superview = \(superview.map { String(describing: Swift.type(of: $0)) } ?? "none")",
            ])
    }

    /// The view and its subviews, recursively, as text: one line per view in depth-first
    /// pre-order, each indented by its depth below this view, as UIKit's
    /// `recursiveDescription`:
    ///
    /// ```
    /// <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
    ///    | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>
    /// ```
    ///
    /// This is `ViewTree.recursiveDescription(of:maxLines:)` on the view's tree,
    /// with class names for types: the line format, the frame (shown once the tree has any
    /// geometry), the indentation (`[depth d] ` past 64 levels) and the last line
    /// `… N more nodes` after `maxLines` lines are the core's. A view with neither superview
    /// nor subviews is one line with `node = none`.
    ///
    /// Traps if `maxLines` is less than 1.
    /// - Parameter maxLines: The most view lines to write, at least 1.
    /// - Returns: The listing, at most `maxLines + 1` lines separated by `"\n"`.
    /// - Complexity: O(lines written), plus O(subtree size / 32) to count the views left out.
    public func recursiveDescription(maxLines: Int = 1_000) -> String {
        guard let store = _store else {
            ViewTree._checkMaxLines(maxLines)
            return ViewTree._nodeLine(
                typeName: String(describing: Swift.type(of: self)),
                frame: _extras.flatMap { $0.geometryIsZero ? nil : ($0.frameOrigin, $0.frameSize) },
                tag: _loneTag, node: nil)
        }
        return store.tree.recursiveDescription(of: _node, maxLines: maxLines)
    }
}
