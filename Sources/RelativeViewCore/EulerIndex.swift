import Synchronization

/// Pre-order number and subtree end of one node: the node's descendants have pre-order
/// numbers in `pre + 1 ..< end`. Kept together so an ancestor test reads one 8-byte entry per node.
@usableFromInline
struct _Span: Sendable {
    @usableFromInline var pre: Int32
    @usableFromInline var end: Int32

    @inlinable init(pre: Int32, end: Int32) {
        self.pre = pre
        self.end = end
    }
}

/// The Euler-tour index of a forest: immutable once built, shared between copies of a tree.
///
/// `span[slot]` holds the node's pre-order interval, `order[pre]` the node at a pre-order
/// position, and `tag`/`type` pre-order copies of the narrow tag and type columns, so a
/// subtree is one contiguous slice `pre + 1 ..< end` that grouping scans without chasing
/// a pointer. 20 bytes per slot.
@usableFromInline
final class EulerIndex: Sendable {
    /// Numbers every index ever built, from 1: an epoch names one index for good, even after
    /// it is freed (its address may be reused; its epoch is not).
    static let epochs = Atomic<UInt64>(0)

    /// This index's number, unique for the process's life; never 0.
    @usableFromInline let epoch: UInt64
    @usableFromInline let span: [_Span]
    @usableFromInline let order: [Int32]
    @usableFromInline let tag: [Int32]
    @usableFromInline let type: [Int32]

    /// Builds the index with one iterative pre-order walk over the links, O(slots).
    init(building s: _TreeStorage) {
        epoch = Self.epochs.wrappingAdd(1, ordering: .relaxed).newValue
        let slots = s.slotCount
        let live = s.liveCount
        var span = [_Span](repeating: _Span(pre: 0, end: 0), count: slots)
        var order = [Int32](repeating: 0, count: live)
        var tag = [Int32](repeating: 0, count: live)
        var type = [Int32](repeating: 0, count: live)
        s.parent.withUnsafeBufferPointer { parent in
        s.firstChild.withUnsafeBufferPointer { firstChild in
        s.nextSibling.withUnsafeBufferPointer { next in
        s.narrowTag.withUnsafeBufferPointer { nodeTag in
        s.typeID.withUnsafeBufferPointer { nodeType in
        span.withUnsafeMutableBufferPointer { span in
        order.withUnsafeMutableBufferPointer { order in
        tag.withUnsafeMutableBufferPointer { tag in
        type.withUnsafeMutableBufferPointer { type in
            var p: Int32 = 0
            for root in 0 ..< Int32(slots) where parent[Int(root)] == _TreeStorage.none {
                var node = root
                walk: while true {
                    let n = Int(node)
                    span[n].pre = p
                    order[Int(p)] = node
                    tag[Int(p)] = nodeTag[n]
                    type[Int(p)] = nodeType[n]
                    p += 1
                    let child = firstChild[n]
                    if child != _TreeStorage.none {
                        node = child
                        continue
                    }
                    // Close the node and every ancestor whose last child it ends.
                    while true {
                        span[Int(node)].end = p
                        if node == root { break walk }
                        let sibling = next[Int(node)]
                        if sibling != _TreeStorage.none {
                            node = sibling
                            continue walk
                        }
                        node = parent[Int(node)]
                    }
                }
            }
            precondition(Int(p) == live, "the tree's links do not form a forest (cycle or lost node)")
        }}}}}}}}}
        self.span = span
        self.order = order
        self.tag = tag
        self.type = type
    }

    /// Builds the index from arrays a ``ViewTreeBuilder`` filled while streaming.
    init(span: [_Span], order: [Int32], tag: [Int32], type: [Int32]) {
        epoch = Self.epochs.wrappingAdd(1, ordering: .relaxed).newValue
        self.span = span
        self.order = order
        self.tag = tag
        self.type = type
    }

    /// Whether `a` is a proper ancestor of `b`.
    @inlinable @inline(__always)
    func isProperAncestor(_ a: Int32, _ b: Int32) -> Bool {
        let s = span[Int(a)]
        let p = span[Int(b)].pre
        // One unsigned comparison: p - pre - 1 < end - pre - 1 (both as UInt32).
        return UInt32(bitPattern: p &- s.pre &- 1) < UInt32(bitPattern: s.end &- s.pre &- 1)
    }
}
