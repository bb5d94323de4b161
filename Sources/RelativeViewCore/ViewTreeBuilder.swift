/// Builds a ``ViewTree`` from a stream of open/close events, as a parser produces a
/// document, with its index ready and no extra pass: a node's enter token is appended to
/// the Euler tour when it opens, its exit token when it closes, so the tour's blocks come
/// out full and in order.
///
/// ```swift
/// var builder = ViewTreeBuilder()
/// builder.open(type: TypeRegistry.shared.typeID(named: "html"))
/// builder.open(tag: 7, type: TypeRegistry.shared.typeID(named: "body"))
/// builder.close()
/// builder.close()
/// let tree = builder.finish()
/// ```
public struct ViewTreeBuilder: Sendable {
    private var tree: ViewTree
    private var open: [Int32] = []

    /// A builder with room for `minimumCapacity` nodes.
    ///
    /// - Complexity: O(minimumCapacity)
    public init(minimumCapacity: Int = 0) {
        tree = ViewTree(minimumCapacity: minimumCapacity)
        tree._storage.tour.reserveNodes(minimumCapacity)
    }

    /// How many nodes are open (the depth of the next node opened).
    ///
    /// - Complexity: O(1)
    public var depth: Int { open.count }

    /// The number of nodes so far.
    ///
    /// - Complexity: O(1)
    public var count: Int { tree.count }

    /// Opens a node: the last child of the innermost open node, or a new root.
    ///
    /// - Complexity: O(1) amortized.
    @discardableResult
    public mutating func open(tag: Int = 0, type: TypeID) -> NodeID {
        let i = tree._newSlot(tag: tag, type: type)
        let s = tree._storage
        if let parent = open.last { tree._link(i, under: parent) }
        s.tour.append(token: i, tag: s.narrowTag[Int(i)], type: type.rawValue)
        open.append(i)
        return s.nodeID(i)
    }

    /// Closes the innermost open node. Traps if none is open.
    ///
    /// - Complexity: O(1)
    public mutating func close() {
        guard let node = open.popLast() else { preconditionFailure("close() without a matching open()") }
        tree._mutableStorage().tour.append(token: ~node, tag: Int32.min, type: _TourBlocks.exitType)
    }

    /// The finished tree, its index ready. Traps if a node is still open.
    ///
    /// - Complexity: O(1)
    public consuming func finish() -> ViewTree {
        precondition(open.isEmpty, "finish() with \(open.count) node(s) still open")
        return tree
    }
}
