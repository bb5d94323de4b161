import RelativeViewCore

/// What a markup scanner builds into: a ``ViewTreeBuilder`` itself, or a ``_TapeWriter``
/// that records the same calls for a builder on another thread to replay
/// (``_PipelinedScan``). The scanner is generic over it and specialized for each, so the
/// builder's calls stay inlined where the scanner builds directly.
protocol _TreeSink: ~Copyable {
    /// Opens a node of `type` with `tag`, a child of the innermost open node (or a root).
    mutating func openNode(tag: Int, type: TypeID)
    /// Closes the innermost open node.
    mutating func closeNode()
    /// A node of `type` with `tag` that has no children (opened and closed).
    mutating func appendLeafNode(tag: Int, type: TypeID)
    /// The text of the node made last.
    mutating func setValue(utf8: UnsafeBufferPointer<UInt8>)
    /// One more named attribute of the node made last.
    mutating func addAttribute(name: TypeID, utf8: UnsafeBufferPointer<UInt8>)
    /// The `id`, `class` or `key` of the node made last (a skeleton import's).
    mutating func setAttribute(_ attribute: NodeAttribute, utf8: UnsafeBufferPointer<UInt8>)
}

extension ViewTreeBuilder: _TreeSink {
    @inline(__always)
    mutating func openNode(tag: Int, type: TypeID) { _ = open(tag: tag, type: type) }

    @inline(__always)
    mutating func closeNode() { close() }

    @inline(__always)
    mutating func appendLeafNode(tag: Int, type: TypeID) { _ = appendLeaf(tag: tag, type: type) }
}
