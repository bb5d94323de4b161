/// Builds a ``ViewTree`` from a stream of open/close events, as a parser produces a
/// document, and gives it a fresh index with no rebuild: pre-order numbers are assigned
/// when a node opens and subtree ends when it closes.
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
    private var span: [_Span] = []
    private var order: [Int32] = []
    private var tag: [Int32] = []
    private var type: [Int32] = []

    /// A builder with room for `minimumCapacity` nodes.
    ///
    /// - Complexity: O(minimumCapacity)
    public init(minimumCapacity: Int = 0) {
        tree = ViewTree(minimumCapacity: minimumCapacity)
        span.reserveCapacity(minimumCapacity)
        order.reserveCapacity(minimumCapacity)
        tag.reserveCapacity(minimumCapacity)
        type.reserveCapacity(minimumCapacity)
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
        let node: NodeID
        if let parent = open.last {
            node = tree.appendChild(tag: tag, type: type, to: tree._storage.nodeID(parent))
        } else {
            node = tree.makeNode(tag: tag, type: type)
        }
        let pre = Int32(order.count)
        // The builder never frees slots, so slot numbers are pre-order numbers.
        span.append(_Span(pre: pre, end: pre))
        order.append(node.index)
        self.tag.append(tree._storage.narrowTag[Int(node.index)])
        self.type.append(type.rawValue)
        open.append(node.index)
        return node
    }

    /// Closes the innermost open node. Traps if none is open.
    ///
    /// - Complexity: O(1)
    public mutating func close() {
        guard let node = open.popLast() else { preconditionFailure("close() without a matching open()") }
        span[Int(node)].end = Int32(order.count)
    }

    /// The finished tree, with a fresh index. Traps if a node is still open.
    ///
    /// - Complexity: O(1)
    public consuming func finish() -> ViewTree {
        precondition(open.isEmpty, "finish() with \(open.count) node(s) still open")
        let index = EulerIndex(span: span, order: order, tag: tag, type: type)
        // Unique storage (a copy of this builder may share it) with an empty index slot.
        let storage = tree._mutableStorage()
        storage.indexSlot.store(Unmanaged.passRetained(index), ordering: .releasing)
        storage.debt.store(0, ordering: .relaxed)
        return tree
    }
}
