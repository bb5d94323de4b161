/// A handle to one node of a ``ViewTree``.
///
/// A `NodeID` names a slot of the arena and carries a stamp: the slot's generation when the
/// node was made, offset by the identity of the tree that made it (a number drawn when the
/// tree is created, kept by its copies). When a node is removed its slot is recycled with
/// a new generation, so using an old `NodeID` afterwards is caught (it traps with a clear
/// message) instead of silently reading the node that took its place; an id of another
/// tree is caught the same way, and its message says so.
///
/// A `NodeID` is valid in the tree that made it and in that tree's copies (a `ViewTree` is
/// a value: a copy holds the same nodes). The id stays 8 bytes: the tree's identity is
/// folded into the 32-bit stamp rather than stored beside it, so an id of another tree
/// passes the check only if the two stamps happen to agree, one chance in 2^32 (a stale
/// id of the same tree is always caught). A snapshot loaded back is a tree of its own: the
/// ids of the tree that was saved do not apply to it (pre-order positions do).
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    /// The arena slot of the node.
    ///
    /// - Complexity: O(1)
    public let index: Int32

    /// The slot's generation when the node was made, plus (wrapping) the identity of the
    /// tree that made it; a tree checks it on every use.
    ///
    /// - Complexity: O(1)
    public let stamp: UInt32

    /// Package-internal: ids are made by trees; the facade uses it for a placeholder.
    @inlinable @inline(__always)
    package init(index: Int32, stamp: UInt32) {
        self.index = index
        self.stamp = stamp
    }

    /// A textual form, `#index` and the stamp in hexadecimal (a tree's listings show the
    /// slot's generation instead: `#index.generation`).
    ///
    /// - Complexity: O(1)
    public var description: String {
        let hex = String(stamp, radix: 16)
        return "#\(index)/\(String(repeating: "0", count: 8 - hex.count))\(hex)"
    }
}
