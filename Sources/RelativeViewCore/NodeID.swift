/// A handle to one node of a ``ViewTree``.
///
/// A `NodeID` names a slot of the arena together with the slot's generation. When a
/// node is removed its slot is recycled with a new generation, so using an old `NodeID`
/// afterwards is caught (it traps with a clear message) instead of silently reading the
/// node that took its place. A `NodeID` belongs to the tree that made it.
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    /// The arena slot of the node.
    ///
    /// - Complexity: O(1)
    public let index: Int32

    /// The generation of the slot when the node was made.
    ///
    /// - Complexity: O(1)
    public let generation: UInt32

    /// Package-internal: ids are made by trees; the facade uses it for a placeholder.
    @inlinable @inline(__always)
    package init(index: Int32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }

    /// A textual form, `#index.generation`.
    ///
    /// - Complexity: O(1)
    public var description: String { "#\(index).\(generation)" }
}
