/// Which nodes a query visits from a node, and in which order.
///
/// Every search (`first`) and grouping (`group`) of ``ViewTree`` takes one, and each is
/// walked in one place (see `ViewTree+Relations.swift`).
public enum Relation: String, CaseIterable, Hashable, Sendable {
    /// The node's parent, its parent's parent, and so on, nearest first.
    case ancestors
    /// The node's subtree without the node, in depth-first pre-order.
    case descendants
    /// The other children of the node's parent, in child order; none for a root.
    case siblings
    /// The node's children, in child order.
    case children
    /// The children of the node's parent that come after the node, nearest first; none for
    /// a root.
    case followingSiblings
}
