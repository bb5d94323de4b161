extension ViewTree {
    /// Copies the subtree of `root` in `source` (tags, types and geometry) into this tree, as a new root or as the last
    /// child of `parent`, and reports each copied node with its new id, in pre-order.
    ///
    /// The source is left as it is; callers that move a subtree between trees remove it
    /// from the source afterwards. Iterative: a million-deep chain copies without recursion.
    /// - Parameters:
    ///   - root: The subtree to copy, a node of `source`.
    ///   - source: The tree to copy from.
    ///   - parent: The node of this tree to append the copy to, or `nil` for a new root.
    ///   - visit: Called with each source node and its copy, in pre-order.
    /// - Returns: The copy of `root`.
    /// - Complexity: O(size of the subtree).
    @discardableResult
    public mutating func graft(
        _ root: NodeID, of source: ViewTree, under parent: NodeID? = nil,
        _ visit: (_ source: NodeID, _ copy: NodeID) -> Void = { _, _ in }
    ) -> NodeID {
        let from = source._storage
        from.check(root)
        if let parent { _storage.check(parent) }
        let size = source.subtreeSize(of: root)
        if parent == nil && _storage.slotCount == 0 && size >= Self.streamedGraftMinimum {
            return _graftIntoEmpty(root, of: from, size: size, visit)
        }
        _mutableStorage().reserveCapacity(count + size)
        func copy(_ x: Int32, under p: NodeID?) -> NodeID {
            let tag = from.tag(at: x)
            let type = TypeID(rawValue: from.typeID[Int(x)])
            let node = p.map { appendChild(tag: tag, type: type, to: $0) } ?? makeNode(tag: tag, type: type)
            _copyGeometry(of: x, in: from, to: node)
            from.forEachAttribute(at: x) { setAttribute($0, $1, of: node) }
            _copyContent(of: x, in: from, to: node)
            return node
        }
        let newRoot = copy(root.index, under: parent)
        visit(root, newRoot)
        // The copies of the ancestors of the current source node, below `root`.
        var path: [NodeID] = [newRoot]
        var x = root.index
        var current = newRoot
        walk: while true {
            let child = from.firstChild(x)
            if child != _TreeStorage.none {
                path.append(current)
                x = child
            } else {
                while true {
                    if x == root.index { break walk }
                    let sibling = from.nextSibling(x)
                    if sibling != _TreeStorage.none {
                        x = sibling
                        break
                    }
                    x = from.parent[Int(x)]
                    path.removeLast()
                }
            }
            current = copy(x, under: path.last)
            visit(from.nodeID(x), current)
        }
        return newRoot
    }

    /// The smallest subtree that ``graft(_:of:under:_:)`` streams into an empty tree: below
    /// it, making a builder costs more than inserting each node.
    static var streamedGraftMinimum: Int { 128 }

    /// ``graft(_:of:under:_:)`` into a tree with no slots, as a new root: the copy is
    /// streamed in pre-order through a ``ViewTreeBuilder`` (tokens appended at the end of
    /// the index, several times cheaper per node than inserting each under its parent),
    /// which is how the facade moves a tree into a store of its own.
    private mutating func _graftIntoEmpty(
        _ root: NodeID, of from: _TreeStorage, size: Int, _ visit: (_ source: NodeID, _ copy: NodeID) -> Void
    ) -> NodeID {
        var builder = ViewTreeBuilder(minimumCapacity: size)
        var copies: [(source: Int32, copy: NodeID)] = []
        copies.reserveCapacity(size)
        func open(_ x: Int32, _ builder: inout ViewTreeBuilder) {
            let node = builder.open(tag: from.tag(at: x), type: TypeID(rawValue: from.typeID[Int(x)]))
            from.forEachAttribute(at: x) { builder.setAttribute($0, $1) }
            from.content.text.withText(at: Int(x)) { if let value = $0 { builder.setValue(utf8: value) } }
            let a = from.content.attributes
            for e in a.run(of: Int(x)) { a.withValue(at: e) { builder.addAttribute(name: a.name(at: e), utf8: $0) } }
            copies.append((x, node))
        }
        var x = root.index
        open(x, &builder)
        walk: while true {
            let child = from.firstChild(x)
            if child != _TreeStorage.none {
                x = child
                open(x, &builder)
                continue
            }
            // `x` has no children: close it, and its ancestors up to one with a next sibling.
            while true {
                builder.close()
                if x == root.index { break walk }
                let sibling = from.nextSibling(x)
                if sibling != _TreeStorage.none {
                    x = sibling
                    open(x, &builder)
                    break
                }
                x = from.parent[Int(x)]
            }
        }
        self = builder.finish()
        for (x, node) in copies {
            _copyGeometry(of: x, in: from, to: node)
            visit(from.nodeID(x), node)
        }
        return copies[0].copy
    }

    /// Gives `node` the value and the named attributes of slot `x` of `from`.
    private mutating func _copyContent(of x: Int32, in from: _TreeStorage, to node: NodeID) {
        let hasValue = from.content.text.withText(at: Int(x)) { $0 != nil }
        let a = from.content.attributes
        let run = a.run(of: Int(x))
        guard hasValue || !run.isEmpty else { return }
        _makeStorageUniqueAndOwned()
        let s = _storage
        from.content.text.withText(at: Int(x)) { if let value = $0 { s.content.text.set(value, at: Int(node.index)) } }
        for e in run { a.withValue(at: e) { s.content.attributes.set(a.name(at: e), $0, at: Int(node.index)) } }
    }

    /// Gives `node` the geometry of slot `x` of `from`, if it has any (the columns of a
    /// tree that never laid out stay empty).
    private mutating func _copyGeometry(of x: Int32, in from: _TreeStorage, to node: NodeID) {
        guard from._hasGeometry(at: x) else { return }
        let s = _geometryStorage(node)
        let (i, j) = (Int(node.index), Int(x))
        s.frameOrigin[i] = from.frameOrigin[j]
        s.frameSize[i] = from.frameSize[j]
        s.boundsOrigin[i] = from.boundsOrigin[j]
    }

    /// Of two roots, the one whose tree has fewer nodes (`a` on a tie), found by walking
    /// both trees in lockstep so the cost is that of the smaller one.
    ///
    /// The facade's business (which of two trees to graft into the other), so package access.
    ///
    /// - Complexity: O(min(size of a's tree, size of b's tree)).
    package func smallerTree(_ a: NodeID, _ b: NodeID) -> NodeID {
        let s = _storage
        s.check(a)
        s.check(b)
        precondition(s.parent[Int(a.index)] == _TreeStorage.none && s.parent[Int(b.index)] == _TreeStorage.none, "smallerTree needs two roots")
        var x: Int32? = nil
        var y: Int32? = nil
        while true {
            x = Self._preorderStep(s, root: a.index, from: x)
            if x == nil { return a }
            y = Self._preorderStep(s, root: b.index, from: y)
            if y == nil { return b }
        }
    }
}
